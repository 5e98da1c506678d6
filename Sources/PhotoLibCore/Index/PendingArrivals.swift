/// Files a batch of watch events found new, held back until something would read the index again,
/// so that a burst of arrivals (10,000 files renamed into an album, a camera's card copied in) is
/// stored many rows to a statement rather than one insert each.
///
/// The rule of when they must be stored is here (`mustStore(before:)`); the daemon's index holds
/// them while it applies a batch and stores them (`take`) in the batch's transaction.
public struct PendingArrivals: Sendable {
    /// The files held for one album, in the order they arrived.
    public struct Album: Sendable, Equatable {
        public let album: AlbumTree.ID
        public var files: [DirectoryPlan.NewFile]
    }

    private var albums: [Album] = []
    private var slot: [AlbumTree.ID: Int] = [:]
    private var paths: Set<RelativePath> = []

    public init() {}

    public var isEmpty: Bool { paths.isEmpty }
    public var count: Int { paths.count }

    /// Holds a new file found at `path`, in `album`. A path already held must be stored first
    /// (`mustStore(before:)` says so for its refresh), so a name is never held twice.
    public mutating func add(_ file: DirectoryPlan.NewFile, at path: RelativePath, album: AlbumTree.ID) {
        precondition(!paths.contains(path), "a held path is stored before it is looked at again")
        paths.insert(path)
        if let index = slot[album] {
            albums[index].files.append(file)
        } else {
            slot[album] = albums.count
            albums.append(Album(album: album, files: [file]))
        }
    }

    /// Whether the held files must be in the index before `step` is carried out. Every step but
    /// a file's refresh may read or change them (a move or removal, a directory's scan, an album
    /// gone, a rescan); a refresh of a path held must find its row (a file created, then written).
    /// A refresh of another path looks up only that path's row, and at most adds its own.
    public func mustStore(before step: IndexStep) -> Bool {
        guard !isEmpty else { return false }
        if case .refreshFile(let path, _) = step { return paths.contains(path) }
        return true
    }

    /// The held files by album, albums in the order their first file arrived; holds none after.
    public mutating func take() -> [Album] {
        defer { self = PendingArrivals() }
        return albums
    }
}
