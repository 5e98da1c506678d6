import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// A batch's rows (`IndexRows`) in the store's write transaction: SQL and nothing else (a new asset's
/// ID is its row's, `AssetIDPermutation`).
struct TransactionRows: IndexRows {
    let tx: StoreTransaction

    func member(album: AlbumTree.ID, name: FileName) throws -> MemberRecord? { try tx.member(album: album, name: name) }
    func member(rowID: Int64) throws -> MemberRecord? { try tx.member(rowID: rowID) }
    func indexedFiles(inAlbum album: AlbumTree.ID) throws -> [FileName: IndexedFile] { try tx.indexedFiles(inAlbum: album) }
    func asset(rowID: Int64) throws -> AssetRecord? { try tx.asset(rowID: rowID) }
    func assets(inAlbums albums: [AlbumTree.ID]) throws -> [AssetRecord] { try tx.assets(inAlbums: albums) }

    func pairingMembers(inAlbum album: AlbumTree.ID, stem: [UInt8]?) throws -> ([LivePairing.Member], [Int64: Int]) {
        if let stem { return try tx.pairingMembers(inAlbum: album, stem: stem) }
        return try tx.pairingMembers(inAlbum: album)
    }

    func maxMemberRowID() throws -> Int64 { try tx.maxMemberRowID() }

    func inodes(insertedAfter rowID: Int64, _ visit: (Int64, FileInode) -> Void) throws {
        try tx.inodes(insertedAfter: rowID, visit)
    }

    func takeAlbumsDueForPairing() throws -> [AlbumTree.ID] { try tx.takeAlbumsDueForPairing() }

    mutating func insertNewAssets(album: AlbumTree.ID, files: [DirectoryPlan.NewFile]) throws -> [AssetRecord] {
        try tx.insertNewAssets(album: album, files: files)
    }

    func updateMember(_ member: MemberRecord) throws { try tx.updateMember(member) }
    func moveMember(_ member: Int64, toAsset asset: Int64) throws { try tx.moveMember(member, toAsset: asset) }
    mutating func splitMember(_ member: MemberRecord) throws -> Int64 { try tx.splitMember(member) }
    func deleteMember(rowID: Int64) throws { try tx.deleteMember(rowID: rowID) }
    func insertAlbum(parent: AlbumTree.ID, name: FileName) throws -> AlbumTree.ID { try tx.insertAlbum(parent: parent, name: name) }
    func moveAlbum(_ id: AlbumTree.ID, parent: AlbumTree.ID, name: FileName) throws { try tx.moveAlbum(id, parent: parent, name: name) }
    func deleteAlbum(_ id: AlbumTree.ID) throws { try tx.deleteAlbum(id) }
    func setCaptureTime(_ seconds: Int64, memberRowID: Int64) throws { try tx.setCaptureTime(seconds, memberRowID: memberRowID) }
}
