/// What looking at one member file for where it was taken came to.
public enum PlaceFinding: Sendable, Equatable {
    /// Taken within reach of this gazetteer entry.
    case place(GazetteerEntry)
    /// Its metadata says no place, or one far from any the gazetteer has.
    case nowhere
    /// It could not be read now (gone, unreadable, a format exiv2 fails on): looked at again at the next start.
    case unreadable

    /// From what the file's metadata says, and the gazetteer.
    public static func decide(_ coordinate: GeoCoordinate?, in gazetteer: Gazetteer) -> PlaceFinding {
        decide(coordinate) { gazetteer }
    }

    /// The same, asking for the gazetteer only when the file says where it was taken: loading it
    /// costs a core tens of milliseconds, and most files of a burst (screenshots, downloads, scans)
    /// say nowhere.
    public static func decide(_ coordinate: GeoCoordinate?, in gazetteer: () -> Gazetteer) -> PlaceFinding {
        guard let coordinate, let entry = gazetteer().nearest(coordinate) else { return .nowhere }
        return .place(entry)
    }

    /// As the index stores it (`member.place`): the place's ID, 0 for nowhere, -1 for unreadable.
    public var stored: Int64 {
        switch self {
        case .place(let entry): entry.id
        case .nowhere: 0
        case .unreadable: -1
        }
    }
}

/// One member file's finding, for the content it was made for: a file edited since keeps no stale place.
public struct PlaceResult: Sendable, Equatable {
    public let member: Int64
    public let file: FileFacts
    public let finding: PlaceFinding

    public init(member: Int64, file: FileFacts, finding: PlaceFinding) {
        self.member = member
        self.file = file
        self.finding = finding
    }
}
