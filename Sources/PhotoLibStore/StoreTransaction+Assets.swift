import Foundation
import GRDB
public import PhotoLibCore

/// Assets and their member files. An asset row holds the type (and, for assets older than schema
/// v24, the ID); each file of the library that is an asset's member has a `member` row. Triggers
/// (schema v6) drop an asset whose last member goes and keep its type in step as members move or
/// go; a member inserted into an asset sets its type here (v25).
extension StoreTransaction {
    static let memberColumns = "m.rowid, m.asset, m.album, m.name, m.mediaType, m.device, m.inode, m.size, m.mtime, m.mode, m.btime, m.refusal, m.takenAt"

    // MARK: Member files

    public func member(album: AlbumTree.ID, name: FileName) throws -> MemberRecord? {
        try fetchMembers(sql: "SELECT \(Self.memberColumns) FROM member m WHERE album = ? AND name = ?",
                         arguments: [album, Data(name.bytes)]).first
    }

    public func member(rowID: Int64) throws -> MemberRecord? {
        try fetchMembers(sql: "SELECT \(Self.memberColumns) FROM member m WHERE rowid = ?", arguments: [rowID]).first
    }

    /// Adds a member file: to `asset`, or to a new asset (its ID the permutation of its row, `AssetIDPermutation`).
    public func insertMember(
        album: AlbumTree.ID, name: FileName, mediaType: MediaType, file: FileFacts, refusal: LinkRefusal? = nil,
        joining asset: Int64? = nil
    ) throws -> MemberRecord {
        let owner = try asset ?? insertAssetRow(mediaType: mediaType)
        let insert = try db.cachedStatement(sql: "INSERT INTO member (\(Self.newMemberColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
        try DirectWrite(insert, in: db).run(Self.newMemberValues(asset: owner, album: album, name: name, mediaType: mediaType,
                                                                 file: file, refusal: refusal))
        let rowID = db.lastInsertedRowID
        // A file joining an asset may change its type (an image and its video are a Live Photo); a new
        // asset was inserted with the file's own.
        if let asset { try db.cachedStatement(sql: "UPDATE asset SET mediaType = (\(Schema.typeOf("?1"))) WHERE rowid = ?1").execute(arguments: [asset]) }
        return MemberRecord(rowID: rowID, asset: owner, album: album, name: name, mediaType: mediaType,
                            file: file, refusal: refusal)
    }

    /// The columns a new member row is inserted with (`newMemberValues` gives them in this order).
    static let newMemberColumns = "asset, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal, folded"

    static func newMemberValues(asset: Int64, album: AlbumTree.ID, name: FileName, mediaType: MediaType, file: FileFacts,
                                refusal: LinkRefusal?) -> [DirectWrite.Value] {
        [.integer(asset), .integer(album), .blob(name.bytes), .text(mediaType.rawValue),
         .integer(Int64(bitPattern: file.device)), .integer(Int64(bitPattern: file.inode)), .integer(file.size),
         .integer(file.modificationTime), .integer(Int64(file.permissions)), .integer(file.birthTime), .text(refusal?.rawValue),
         .blob(NameFolding.fold(name.bytes))]
    }

    /// A new asset row, its row number (no member yet: insert one at once, in the same transaction). It
    /// stores no ID: its ID is its row's under the library's key (`assetIDs`).
    private func insertAssetRow(mediaType: MediaType) throws -> Int64 {
        try DirectWrite(try db.cachedStatement(sql: "INSERT INTO asset (mediaType) VALUES (?)"), in: db).run([.text(mediaType.rawValue)])
        return db.lastInsertedRowID
    }

    /// Stores a member's location and file facts (its row and asset stay).
    public func updateMember(_ member: MemberRecord) throws {
        try db.cachedStatement(
            // The capture time and place stay while the content does (a move, a chmod); they are looked at again after an edit.
            sql: """
                UPDATE member SET takenAt = CASE WHEN inode = ?5 AND size = ?6 AND mtime = ?7 THEN takenAt END,
                    place = CASE WHEN inode = ?5 AND size = ?6 AND mtime = ?7 THEN place END,
                    album = ?1, name = ?2, mediaType = ?3, device = ?4, inode = ?5, size = ?6, mtime = ?7, mode = ?8, btime = ?9,
                    refusal = ?10, folded = ?12 WHERE rowid = ?11
                """
        ).execute(arguments: [member.album, Data(member.name.bytes), member.mediaType.rawValue,
                              Int64(bitPattern: member.file.device), Int64(bitPattern: member.file.inode), member.file.size,
                              member.file.modificationTime, Int64(member.file.permissions), member.file.birthTime,
                              member.refusal?.rawValue, member.rowID, Data(NameFolding.fold(member.name.bytes))])
    }

    /// Moves a member into another asset. When it was its old asset's last
    /// member, that asset's selections are added to `asset` first (nobody
    /// loses a grant), then the old asset goes.
    public func moveMember(_ member: Int64, toAsset asset: Int64) throws {
        guard let old = try Int64.fetchOne(db.cachedStatement(sql: "SELECT asset FROM member WHERE rowid = ?"), arguments: [member]), old != asset else { return }
        if try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM member WHERE asset = ?"), arguments: [old]) == 1 {
            try selectionsChange("selectedAsset")
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO selectedAsset (app, asset) SELECT app, ? FROM selectedAsset WHERE asset = ?")
                .execute(arguments: [asset, old])
        }
        try db.cachedStatement(sql: "UPDATE member SET asset = ? WHERE rowid = ?").execute(arguments: [asset, member])
    }

    /// Moves a member out of its asset into a new one of its own (a new ID, no selections).
    @discardableResult
    public func splitMember(_ member: MemberRecord) throws -> Int64 {
        let asset = try insertAssetRow(mediaType: member.mediaType)
        try db.cachedStatement(sql: "UPDATE member SET asset = ? WHERE rowid = ?").execute(arguments: [asset, member.rowID])
        return asset
    }

    /// Records (or clears) why a member's original is left out of every view.
    public func setRefusal(_ refusal: LinkRefusal?, memberRowID: Int64) throws {
        try db.cachedStatement(sql: "UPDATE member SET refusal = ? WHERE rowid = ?").execute(arguments: [refusal?.rawValue, memberRowID])
    }

    /// Deletes a member file's row; its asset goes with its last member.
    public func deleteMember(rowID: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM member WHERE rowid = ?").execute(arguments: [rowID])
    }

    /// The members of one album, as `LivePairing` needs them, and how many
    /// members each of their assets has in all.
    public func pairingMembers(inAlbum album: AlbumTree.ID) throws -> ([LivePairing.Member], [Int64: Int]) {
        try pairingMembers(sql: "m.album = ?", arguments: [album], stem: nil)
    }

    /// The members of one album whose stem is `stem` (`IMG_1` for `IMG_1.HEIC`
    /// and `IMG_1.MOV`): the names from `stem.` up to `stem/`, a range of the
    /// (album, name) index, since `/` is the byte after `.` and in no name.
    public func pairingMembers(inAlbum album: AlbumTree.ID, stem: [UInt8]) throws -> ([LivePairing.Member], [Int64: Int]) {
        try pairingMembers(sql: "m.album = ? AND m.name >= ? AND m.name < ?",
                           arguments: [album, Data(stem + [0x2E]), Data(stem + [0x2F])], stem: stem)
    }

    private func pairingMembers(sql condition: String, arguments: StatementArguments, stem: [UInt8]?) throws -> ([LivePairing.Member], [Int64: Int]) {
        let statement = try db.cachedStatement(sql: """
            SELECT m.rowid, m.asset, m.name, m.mediaType, (SELECT count(*) FROM member o WHERE o.asset = m.asset)
            FROM member m WHERE \(condition)
            """)
        var members: [LivePairing.Member] = []
        var counts: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let row = CurrentRow(statement)
        while try rows.next() != nil {
            guard let name = row.name(2), let type = row.text(3).flatMap(MediaType.init(rawValue:)) else { continue }
            if let stem, name.stem != stem { continue }  // a longer stem with a dot: IMG_1.x.jpg
            let asset = row.int64(1)
            members.append(LivePairing.Member(rowID: row.int64(0), asset: asset, name: name, mediaType: type))
            counts[asset] = Int(row.int64(4))
        }
        return (members, counts)
    }

    /// The albums a schema upgrade left to pair, forgotten as they are returned.
    public func takeAlbumsDueForPairing() throws -> [AlbumTree.ID] {
        let albums = try Int64.fetchAll(db, sql: "SELECT album FROM pairingDue")
        if !albums.isEmpty { try db.execute(sql: "DELETE FROM pairingDue") }
        return albums
    }

    /// The largest member row ID so far (0 when empty): rows above it were inserted later.
    public func maxMemberRowID() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM member") ?? 0
    }

    /// Visits the member rows inserted after `rowID` (a range of the rowid key), in row order, with
    /// their files' device and inode.
    public func inodes(insertedAfter rowID: Int64, _ visit: (Int64, FileInode) -> Void) throws {
        let statement = try db.cachedStatement(sql: "SELECT rowid, device, inode FROM member WHERE rowid > ? ORDER BY rowid")
        let rows = try Row.fetchCursor(statement, arguments: [rowID])
        while let row = try rows.next() {
            visit(row[0], FileInode(device: UInt64(bitPattern: row[1] as Int64), inode: UInt64(bitPattern: row[2] as Int64)))
        }
    }

    /// The files of one album by name: the hot path of every scan and full reconcile,
    /// so it reads only what a comparison needs (no IDs or strings to decode).
    public func indexedFiles(inAlbum album: AlbumTree.ID) throws -> [FileName: IndexedFile] {
        let statement = try db.cachedStatement(sql: "SELECT rowid, name, device, inode, size, mtime, mode, btime, refusal FROM member WHERE album = ?")
        let rows = try Row.fetchCursor(statement, arguments: [album])
        let row = CurrentRow(statement)
        var out: [FileName: IndexedFile] = [:]
        while try rows.next() != nil {
            guard let name = row.name(1) else { continue }
            out[name] = IndexedFile(rowID: row.int64(0), file: FileFacts(
                device: UInt64(bitPattern: row.int64(2)), inode: UInt64(bitPattern: row.int64(3)), birthTime: row.optionalInt64(7),
                size: row.int64(4), modificationTime: row.int64(5), permissions: UInt32(truncatingIfNeeded: row.int64(6))),
                refusal: row.text(8).flatMap(LinkRefusal.init(rawValue:)))
        }
        return out
    }

    func fetchMembers(sql: String, arguments: StatementArguments) throws -> [MemberRecord] {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let row = CurrentRow(statement)
        var out: [MemberRecord] = []
        while try rows.next() != nil {
            if let member = Self.member(from: row, at: 0) { out.append(member) }
        }
        return out
    }

    /// Decodes `memberColumns` starting at column `base`, by index (the hot path of every scan).
    static func member(from row: CurrentRow, at base: Int32) -> MemberRecord? {
        guard let name = row.name(base + 3), let mediaType = row.text(base + 4).flatMap(MediaType.init(rawValue:)) else { return nil }
        return MemberRecord(
            rowID: row.int64(base), asset: row.int64(base + 1), album: row.int64(base + 2), name: name, mediaType: mediaType,
            file: FileFacts(device: UInt64(bitPattern: row.int64(base + 5)), inode: UInt64(bitPattern: row.int64(base + 6)),
                            birthTime: row.optionalInt64(base + 10), size: row.int64(base + 7), modificationTime: row.int64(base + 8),
                            permissions: UInt32(truncatingIfNeeded: row.int64(base + 9))),
            refusal: row.text(base + 11).flatMap(LinkRefusal.init(rawValue:)), takenAt: row.optionalInt64(base + 12))
    }

    // MARK: Assets

    public func asset(rowID: Int64) throws -> AssetRecord? {
        try fetchAssets(where: "a.rowid = ?", arguments: [rowID]).first
    }

    public func asset(id: AssetID) throws -> AssetRecord? {
        // An asset made since schema v24 by its row (the inverse of its ID); one made before by the ID it keeps.
        if let row = try assetIDs().row(for: id),
           let found = try fetchAssets(where: "a.rowid = ? AND a.id IS NULL", arguments: [row]).first {
            return found
        }
        return try fetchAssets(where: "a.id = ?", arguments: [id.rawValue]).first
    }

    /// The asset a member file belongs to.
    public func asset(album: AlbumTree.ID, name: FileName) throws -> AssetRecord? {
        try fetchAssets(where: "a.rowid = (SELECT asset FROM member WHERE album = ? AND name = ?)",
                        arguments: [album, Data(name.bytes)]).first
    }

    /// Assets with a member file in any of the given albums.
    public func assets(inAlbums albums: [AlbumTree.ID]) throws -> [AssetRecord] {
        var out: [AssetRecord] = []
        for chunk in stride(from: 0, to: albums.count, by: 500).map({ Array(albums[$0..<min($0 + 500, albums.count)]) }) {
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            out += try fetchAssets(where: "a.rowid IN (SELECT asset FROM member WHERE album IN (\(marks)))",
                                   arguments: StatementArguments(chunk), cached: false)
        }
        return out
    }

    /// Every asset with a refused member file, for `doctor`.
    public func refusedAssets() throws -> [AssetRecord] {
        try fetchAssets(where: "a.rowid IN (SELECT asset FROM member WHERE refusal IS NOT NULL)")
    }

    public func assetCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM asset") ?? 0
    }

    /// How many files the index holds (a Live Photo is two): a whole view's size, for its progress.
    public func memberCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM member") ?? 0
    }

    /// Assets matching a listing filter: a member in one of `albums`, of this
    /// type, with a member whose name contains `nameContains`.
    public func assets(albums: [AlbumTree.ID]?, mediaType: MediaType?, nameContains: [UInt8]?) throws -> [AssetRecord] {
        var memberClauses: [String] = []
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let albums {
            memberClauses.append("album IN (\(albums.map { _ in "?" }.joined(separator: ",")))")
            arguments += albums.map { $0 as any DatabaseValueConvertible }
        }
        if let nameContains, !nameContains.isEmpty {
            memberClauses.append("instr(folded, ?) > 0")
            arguments.append(Data(NameFolding.fold(nameContains)))
        }
        if !memberClauses.isEmpty {
            clauses.append("a.rowid IN (SELECT asset FROM member WHERE \(memberClauses.joined(separator: " AND ")))")
        }
        if let mediaType {
            clauses.append("a.mediaType = ?")
            arguments.append(mediaType.rawValue)
        }
        return try fetchAssets(where: clauses.isEmpty ? "1" : clauses.joined(separator: " AND "),
                               arguments: StatementArguments(arguments), cached: false)
    }

    /// Runs an asset query (`condition` on `asset a`) and groups the joined
    /// member rows in place. Statements with a variable number of parameters
    /// pass `cached: false`, so they do not fill the statement cache.
    func fetchAssets(where condition: String, arguments: StatementArguments = StatementArguments(), cached: Bool = true) throws -> [AssetRecord] {
        let sql = """
            SELECT a.rowid, a.id, a.mediaType, \(Self.memberColumns) FROM asset a JOIN member m ON m.asset = a.rowid
            WHERE \(condition) ORDER BY a.rowid
            """
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        let ids = try assetIDs()
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let row = CurrentRow(statement)
        var out: [AssetRecord] = []
        while try rows.next() != nil {
            let rowID = row.int64(0)
            guard let member = Self.member(from: row, at: 3) else { continue }
            if let last = out.last, last.rowID == rowID {
                // The photo of a Live Photo first: sorted here, not by SQL, so
                // the join needs no sort (assets by row, members by the asset index).
                out[out.count - 1].members.append(member)
                out[out.count - 1].members.sort { ($0.mediaType == .image ? 0 : 1, $0.rowID) < ($1.mediaType == .image ? 0 : 1, $1.rowID) }
                continue
            }
            // An ID kept from before schema v24, or the permutation of the row's number.
            let id: AssetID
            if let kept = row.text(1) {
                guard let valid = AssetID(kept) else { continue }
                id = valid
            } else {
                id = ids.id(forRow: rowID)
            }
            guard let mediaType = row.text(2).flatMap(MediaType.init(rawValue:)) else { continue }
            out.append(AssetRecord(rowID: rowID, id: id, mediaType: mediaType, members: [member]))
        }
        return out
    }
}
