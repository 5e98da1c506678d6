/// The shape of an app's view directory, derived from its read-write authorization.
public enum ViewLayout: Sendable, Equatable {
    /// No entries at all (`notDetermined`, `restricted`, `denied`).
    case empty
    /// One flat directory of the selected assets, under names that reveal no album.
    case limited
    /// The whole library, albums as sub-directories.
    case full

    public init(readWrite status: AuthorizationStatus) {
        switch status {
        case .authorized: self = .full
        case .limited: self = .limited
        case .notDetermined, .restricted, .denied: self = .empty
        }
    }
}
