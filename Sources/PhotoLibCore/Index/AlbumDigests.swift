/// The digests of every album's rows a clean stop left (`AlbumDigest`), for the next start's scan.
///
/// The rows may be taken as the disk's where a directory's listing digests to what its rows did:
/// the start's scan then neither reads its rows nor compares them with the listing. That holds only
/// while the rows are the ones digested, so the store hands the digests out once (read and
/// deleted in the start's first transaction), the index drops them at its first write of any
/// kind, and only a full scan, which reads each album's rows before it changes any, uses them.
/// Every file is still looked at (the walk stats each one): an edit in place changes its facts,
/// and so its album's digest.
public struct AlbumDigests: Sendable, Equatable {
    public let key: AlbumDigest.Key
    /// What the rows were digested under: digests recorded under another version or library are not used.
    public let fingerprint: String
    public let albums: [AlbumTree.ID: AlbumDigest]

    public init(key: AlbumDigest.Key, fingerprint: String, albums: [AlbumTree.ID: AlbumDigest]) {
        self.key = key
        self.fingerprint = fingerprint
        self.albums = albums
    }

    /// The album's count of asset files when its listing is what its rows were, else nil.
    public func unchanged(_ album: AlbumTree.ID, listing: Lookup<[DirectoryPlan.Entry]>, policy: AssetNamePolicy,
                          daemonUID: UInt32) -> Int? {
        guard let recorded = albums[album], case .found(let entries) = listing,
              let found = AlbumDigest.of(listing: entries, policy: policy, daemonUID: daemonUID, key: key),
              found.digest == recorded else { return nil }
        return found.files
    }
}
