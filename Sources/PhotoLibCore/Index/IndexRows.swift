/// The index's rows as a batch reads and writes them (`IndexBatch`): in the daemon, the store's
/// write transaction, which makes no system call but SQLite's; in the core's tests, a table in memory.
///
/// The store's rules hold for every implementation: an asset goes with its last member (deleted, or
/// moved into another asset, whose selections it joins), an asset's type follows its members (`live`
/// for an image and a video), an album's deletion takes its sub-albums and their members, and a
/// member's update drops its capture time when its content (inode, size, mtime) changed.
public protocol IndexRows {
    func member(album: AlbumTree.ID, name: FileName) throws -> MemberRecord?
    func member(rowID: Int64) throws -> MemberRecord?
    /// The files of one album by name, as a directory's plan compares them with its listing.
    func indexedFiles(inAlbum album: AlbumTree.ID) throws -> [FileName: IndexedFile]
    func asset(rowID: Int64) throws -> AssetRecord?
    /// Assets with a member file in any of the given albums, by row.
    func assets(inAlbums albums: [AlbumTree.ID]) throws -> [AssetRecord]
    /// The members of one album (of one stem, when given), as `LivePairing` needs them, and how many
    /// members each of their assets has in all.
    func pairingMembers(inAlbum album: AlbumTree.ID, stem: [UInt8]?) throws -> ([LivePairing.Member], [Int64: Int])
    /// The largest member row so far (0 when empty): rows above it were inserted later.
    func maxMemberRowID() throws -> Int64
    /// Visits the member rows inserted after `rowID`, in row order, with their files' device and
    /// inode: a range of the table's own key, read only when a batch has vanished files to match.
    func inodes(insertedAfter rowID: Int64, _ visit: (Int64, FileInode) -> Void) throws
    /// The albums a schema upgrade left to pair, forgotten as they are returned.
    mutating func takeAlbumsDueForPairing() throws -> [AlbumTree.ID]

    /// Each file as a new asset of its own (a new ID, never used before), in the order given.
    mutating func insertNewAssets(album: AlbumTree.ID, files: [DirectoryPlan.NewFile]) throws -> [AssetRecord]
    /// Stores a member's location and file facts (its row and asset stay).
    mutating func updateMember(_ member: MemberRecord) throws
    /// Moves a member into another asset (its old asset's selections join it when it was the last member).
    mutating func moveMember(_ member: Int64, toAsset asset: Int64) throws
    /// Moves a member out of its asset into a new one of its own (fresh ID, no selections); its row.
    mutating func splitMember(_ member: MemberRecord) throws -> Int64
    mutating func deleteMember(rowID: Int64) throws
    mutating func insertAlbum(parent: AlbumTree.ID, name: FileName) throws -> AlbumTree.ID
    mutating func moveAlbum(_ id: AlbumTree.ID, parent: AlbumTree.ID, name: FileName) throws
    /// Deletes an album with its sub-albums and their members.
    mutating func deleteAlbum(_ id: AlbumTree.ID) throws
    mutating func setCaptureTime(_ seconds: Int64, memberRowID: Int64) throws
}
