/// Whether an app sees where its photos were taken (SPEC §9).
///
/// `none` is the default for a new app: a photo's GPS tag is often the most
/// private thing in it. Such an app gets, for each photo that carries a
/// location, a derivative with every location field removed
/// (`LocationFields`); photos without one are linked as they are.
public enum LocationPolicy: String, Sendable, Equatable, CaseIterable, Codable {
    /// The originals, location and all.
    case precise
    /// No location field in anything the app is given.
    case none

    /// What a newly registered app gets unless the person says otherwise.
    public static let newAppDefault = LocationPolicy.none
}
