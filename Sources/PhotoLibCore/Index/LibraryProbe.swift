/// What a batch of watch events (or a full scan) will make the index look at, looked at before
/// its write transaction opens: each named file's `statx` (and its ancestors', for albums it may
/// make), the listing of every directory below one that appeared, and, while rule grants exist,
/// when each file was taken.
///
/// The batch (`IndexBatch`) reads these answers and never the disk, so the transaction holds the
/// database's write lock only for SQLite's own work. A file that changes after its probe has an
/// event of its own, which the next batch probes again. The daemon gathers it
/// (`LibraryProbe.gather`, through descriptors of the probe's own, off the engine).
public struct LibraryProbe: Sendable {
    public var lookups: [RelativePath: Lookup<FileObservation>] = [:]
    /// Listings of directories that appeared (or must be listed again), and of every album below them.
    public var listings: [RelativePath: Lookup<[DirectoryPlan.Entry]>] = [:]
    /// When each probed media file was taken (nil: it could not be opened), while rule grants exist.
    public var takenAt: [RelativePath: Int64?] = [:]

    public init(lookups: [RelativePath: Lookup<FileObservation>] = [:], listings: [RelativePath: Lookup<[DirectoryPlan.Entry]>] = [:],
                takenAt: [RelativePath: Int64?] = [:]) {
        self.lookups = lookups
        self.listings = listings
        self.takenAt = takenAt
    }

    /// What a probe needs of the index as it stands before the batch, handed to the probe's thread by value.
    public struct Basis: Sendable {
        public let policy: AssetNamePolicy
        public let albums: AlbumTree
        /// Whether some app has a rule grant: when files were taken is read too.
        public let readsCaptureTimes: Bool
        /// The rows' digests the last clean stop left, while the index has written nothing since:
        /// an album whose listing they vouch for has no file to look at.
        public let digests: AlbumDigests?

        public init(policy: AssetNamePolicy, albums: AlbumTree, readsCaptureTimes: Bool, digests: AlbumDigests? = nil) {
            self.policy = policy
            self.albums = albums
            self.readsCaptureTimes = readsCaptureTimes
            self.digests = digests
        }
    }
}
