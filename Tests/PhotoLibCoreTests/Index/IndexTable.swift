import PhotoLibCore

/// The index's rows in memory, for the core's batch tests: the store's rules (an asset goes with
/// its last member, its type follows its members, an album's deletion takes what is below it, a
/// content change drops the capture time) and nothing of SQLite, so a batch is run on values.
struct IndexTable: IndexRows {
    struct Asset: Equatable {
        var id: AssetID
        var mediaType: MediaType
    }

    private(set) var albumRows: [AlbumTree.ID: (parent: AlbumTree.ID?, name: FileName)] = [AlbumTree.rootID: (nil, FileName("root")!)]
    private(set) var assetRows: [Int64: Asset] = [:]
    private(set) var members: [Int64: MemberRecord] = [:]
    var dueForPairing: [AlbumTree.ID] = []
    private var nextAlbum: AlbumTree.ID = 100
    private var nextAsset: Int64 = 1_000
    private var nextMember: Int64 = 10_000
    private var generator = CountingGenerator()

    /// A tree of the albums as they stand, for a batch to start from.
    var tree: AlbumTree {
        var tree = AlbumTree()
        var pending = albumRows.filter { $0.key != AlbumTree.rootID }
        while !pending.isEmpty {
            for (id, row) in pending where row.parent.map(tree.contains) ?? false {
                tree.insert(id: id, parent: row.parent!, name: row.name)
                pending[id] = nil
            }
        }
        return tree
    }

    // MARK: Set-up

    mutating func addAlbum(_ name: String, in parent: AlbumTree.ID = AlbumTree.rootID) -> AlbumTree.ID {
        insertAlbum(parent: parent, name: FileName(name)!)
    }

    /// A file already indexed as an asset of its own; its asset's row.
    @discardableResult
    mutating func addFile(_ name: String, in album: AlbumTree.ID, facts: FileFacts, joining asset: Int64? = nil) -> Int64 {
        let name = FileName(name)!
        let type = AssetNamePolicy.standard.mediaType(of: name)!
        let owner = asset ?? newAsset(type)
        let member = MemberRecord(rowID: nextMember, asset: owner, album: album, name: name, mediaType: type, file: facts)
        nextMember += 1
        members[member.rowID] = member
        retype(owner)
        return owner
    }

    /// Changes a row behind the index's back (only to show which rows a scan reads).
    mutating func setSize(_ size: Int64, of name: String, in album: AlbumTree.ID) {
        guard let member = member(album: album, name: FileName(name)!) else { return }
        members[member.rowID]?.file.size = size
    }

    // MARK: Reads

    func member(album: AlbumTree.ID, name: FileName) -> MemberRecord? {
        members.values.first { $0.album == album && $0.name == name }
    }

    func member(rowID: Int64) -> MemberRecord? { members[rowID] }

    func indexedFiles(inAlbum album: AlbumTree.ID) -> [FileName: IndexedFile] {
        Dictionary(uniqueKeysWithValues: members.values.filter { $0.album == album }.map {
            ($0.name, IndexedFile(rowID: $0.rowID, file: $0.file, refusal: $0.refusal))
        })
    }

    func asset(rowID: Int64) -> AssetRecord? {
        guard let row = assetRows[rowID] else { return nil }
        let own = members.values.filter { $0.asset == rowID }
            .sorted { ($0.mediaType == .image ? 0 : 1, $0.rowID) < ($1.mediaType == .image ? 0 : 1, $1.rowID) }
        return AssetRecord(rowID: rowID, id: row.id, mediaType: row.mediaType, members: own)
    }

    func assets(inAlbums albums: [AlbumTree.ID]) -> [AssetRecord] {
        Set(members.values.filter { albums.contains($0.album) }.map(\.asset)).sorted().compactMap(asset(rowID:))
    }

    func pairingMembers(inAlbum album: AlbumTree.ID, stem: [UInt8]?) -> ([LivePairing.Member], [Int64: Int]) {
        let found = members.values.filter { $0.album == album && (stem == nil || $0.name.stem == stem) }.sorted { $0.rowID < $1.rowID }
        var counts: [Int64: Int] = [:]
        for member in found { counts[member.asset] = members.values.filter { $0.asset == member.asset }.count }
        return (found.map { LivePairing.Member(rowID: $0.rowID, asset: $0.asset, name: $0.name, mediaType: $0.mediaType) }, counts)
    }

    func maxMemberRowID() -> Int64 { members.keys.max() ?? 0 }

    func inodes(insertedAfter rowID: Int64, _ visit: (Int64, FileInode) -> Void) {
        for member in members.values.filter({ $0.rowID > rowID }).sorted(by: { $0.rowID < $1.rowID }) { visit(member.rowID, FileInode(member.file)) }
    }

    mutating func takeAlbumsDueForPairing() -> [AlbumTree.ID] {
        defer { dueForPairing = [] }
        return dueForPairing
    }

    // MARK: Writes

    mutating func insertNewAssets(album: AlbumTree.ID, files: [DirectoryPlan.NewFile]) -> [AssetRecord] {
        files.map { file in
            let owner = newAsset(file.mediaType)
            let member = MemberRecord(rowID: nextMember, asset: owner, album: album, name: file.name, mediaType: file.mediaType,
                                      file: file.facts, refusal: file.refusal)
            nextMember += 1
            members[member.rowID] = member
            return AssetRecord(rowID: owner, id: assetRows[owner]!.id, mediaType: file.mediaType, members: [member])
        }
    }

    mutating func updateMember(_ member: MemberRecord) {
        guard let old = members[member.rowID] else { return }
        var new = member
        let sameContent = old.file.inode == member.file.inode && old.file.size == member.file.size
            && old.file.modificationTime == member.file.modificationTime
        new.takenAt = sameContent ? old.takenAt : nil
        new.asset = old.asset
        members[member.rowID] = new
        if old.mediaType != new.mediaType { retype(new.asset) }
    }

    mutating func moveMember(_ member: Int64, toAsset asset: Int64) {
        guard let old = members[member]?.asset, old != asset else { return }
        members[member]?.asset = asset
        dropIfEmpty(old)
        retype(asset)
    }

    mutating func splitMember(_ member: MemberRecord) -> Int64 {
        let owner = newAsset(member.mediaType)
        let old = members[member.rowID]!.asset
        members[member.rowID]?.asset = owner
        dropIfEmpty(old)
        return owner
    }

    mutating func deleteMember(rowID: Int64) {
        guard let old = members.removeValue(forKey: rowID) else { return }
        dropIfEmpty(old.asset)
    }

    mutating func insertAlbum(parent: AlbumTree.ID, name: FileName) -> AlbumTree.ID {
        defer { nextAlbum += 1 }
        albumRows[nextAlbum] = (parent, name)
        return nextAlbum
    }

    mutating func moveAlbum(_ id: AlbumTree.ID, parent: AlbumTree.ID, name: FileName) {
        albumRows[id] = (parent, name)
    }

    mutating func deleteAlbum(_ id: AlbumTree.ID) {
        albumRows[id] = nil
        for child in albumRows.filter({ $0.value.parent == id }).map(\.key) { deleteAlbum(child) }
        for member in members.values where member.album == id { deleteMember(rowID: member.rowID) }
    }

    mutating func setCaptureTime(_ seconds: Int64, memberRowID: Int64) {
        members[memberRowID]?.takenAt = seconds
    }

    // MARK: The store's rules

    private mutating func newAsset(_ type: MediaType) -> Int64 {
        defer { nextAsset += 1 }
        assetRows[nextAsset] = Asset(id: AssetID.random(using: &generator), mediaType: type)
        return nextAsset
    }

    private mutating func dropIfEmpty(_ asset: Int64) {
        if members.values.contains(where: { $0.asset == asset }) { retype(asset) } else { assetRows[asset] = nil }
    }

    private mutating func retype(_ asset: Int64) {
        let types = Set(members.values.filter { $0.asset == asset }.map(\.mediaType))
        guard let only = types.first else { return }
        assetRows[asset]?.mediaType = types.count > 1 ? .live : only
    }
}

/// SplitMix64 from zero: asset IDs that differ from one another and are the same in every run.
struct CountingGenerator: RandomNumberGenerator {
    private var state: UInt64 = 0

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
