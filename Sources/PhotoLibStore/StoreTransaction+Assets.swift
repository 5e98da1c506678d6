import Foundation
import GRDB
public import PhotoLibCore

extension StoreTransaction {
    static let assetColumns = "rowid, id, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal"

    public func asset(album: AlbumTree.ID, name: FileName) throws -> AssetRecord? {
        try Row.fetchOne(db, sql: "SELECT \(Self.assetColumns) FROM asset WHERE album = ? AND name = ?",
                         arguments: [album, Data(name.bytes)]).flatMap(Self.asset(from:))
    }

    public func asset(id: AssetID) throws -> AssetRecord? {
        try Row.fetchOne(db, sql: "SELECT \(Self.assetColumns) FROM asset WHERE id = ?", arguments: [id.rawValue])
            .flatMap(Self.asset(from:))
    }

    /// The assets of one album. (Scans and reconciles compare listings with
    /// `indexedFiles(inAlbum:)`, which reads less.)
    public func assets(inAlbum album: AlbumTree.ID) throws -> [AssetRecord] {
        try fetchAssets(sql: "SELECT \(Self.assetColumns) FROM asset WHERE album = ?", arguments: [album])
    }

    /// Assets in any of the given albums.
    public func assets(inAlbums albums: [AlbumTree.ID]) throws -> [AssetRecord] {
        var out: [AssetRecord] = []
        for chunk in stride(from: 0, to: albums.count, by: 500).map({ Array(albums[$0..<min($0 + 500, albums.count)]) }) {
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            out += try fetchAssets(sql: "SELECT \(Self.assetColumns) FROM asset WHERE album IN (\(marks))", arguments: StatementArguments(chunk), cached: false)
        }
        return out
    }

    /// Adds an asset under a fresh random ID.
    public func insertAsset<G: RandomNumberGenerator>(
        album: AlbumTree.ID, name: FileName, mediaType: MediaType, file: FileFacts, refusal: LinkRefusal? = nil,
        generator: inout G
    ) throws -> AssetRecord {
        while true {
            let id = AssetID.random(using: &generator)
            do {
                try db.cachedStatement(
                    sql: "INSERT INTO asset (id, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
                ).execute(arguments: [id.rawValue, album, Data(name.bytes), mediaType.rawValue,
                                      Int64(bitPattern: file.device), Int64(bitPattern: file.inode), file.size,
                                      file.modificationTime, Int64(file.permissions), file.birthTime, refusal?.rawValue])
                return AssetRecord(rowID: db.lastInsertedRowID, id: id, album: album, name: name, mediaType: mediaType, file: file,
                                   refusal: refusal)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT
                && (error.message ?? "").contains("asset.id") {
                continue  // 80 random bits collided: draw again
            }
        }
    }

    /// Stores a record's location and file facts (its `rowID` and `id` stay).
    public func updateAsset(_ record: AssetRecord) throws {
        try db.cachedStatement(
            sql: "UPDATE asset SET album = ?, name = ?, mediaType = ?, device = ?, inode = ?, size = ?, mtime = ?, mode = ?, btime = ?, refusal = ? WHERE rowid = ?"
        ).execute(arguments: [record.album, Data(record.name.bytes), record.mediaType.rawValue,
                              Int64(bitPattern: record.file.device), Int64(bitPattern: record.file.inode), record.file.size,
                              record.file.modificationTime, Int64(record.file.permissions), record.file.birthTime,
                              record.refusal?.rawValue, record.rowID])
    }

    /// Records (or clears) why an asset's original is left out of every view.
    public func setRefusal(_ refusal: LinkRefusal?, rowID: Int64) throws {
        try db.cachedStatement(sql: "UPDATE asset SET refusal = ? WHERE rowid = ?").execute(arguments: [refusal?.rawValue, rowID])
    }

    /// Every asset whose original is refused, for `doctor`.
    public func refusedAssets() throws -> [AssetRecord] {
        try fetchAssets(sql: "SELECT \(Self.assetColumns) FROM asset WHERE refusal IS NOT NULL ORDER BY album, name")
    }

    public func deleteAsset(rowID: Int64) throws {
        try db.execute(sql: "DELETE FROM asset WHERE rowid = ?", arguments: [rowID])
    }

    public func assetCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM asset") ?? 0
    }

    /// Assets matching a listing filter, ordered by album and name.
    public func assets(albums: [AlbumTree.ID]?, mediaType: MediaType?, nameContains: [UInt8]?) throws -> [AssetRecord] {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let albums {
            clauses.append("album IN (\(albums.map { _ in "?" }.joined(separator: ",")))")
            arguments += albums.map { $0 as any DatabaseValueConvertible }
        }
        if let mediaType {
            clauses.append("mediaType = ?")
            arguments.append(mediaType.rawValue)
        }
        if let nameContains, !nameContains.isEmpty {
            // lower() folds ASCII only and leaves other bytes alone: a byte-safe, case-insensitive match.
            clauses.append("instr(lower(CAST(name AS TEXT)), lower(CAST(? AS TEXT))) > 0")
            arguments.append(Data(nameContains))
        }
        let whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        return try fetchAssets(sql: "SELECT \(Self.assetColumns) FROM asset \(whereClause) ORDER BY album, name", arguments: StatementArguments(arguments), cached: false)
    }

    /// Runs an asset query and decodes its rows in place (no copied rows).
    /// Statements with a variable number of parameters pass `cached: false`,
    /// so they do not fill the statement cache.
    func fetchAssets(sql: String, arguments: StatementArguments = StatementArguments(), cached: Bool = true) throws -> [AssetRecord] {
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var out: [AssetRecord] = []
        while let row = try rows.next() {
            if let record = Self.asset(from: row) { out.append(record) }
        }
        return out
    }

    /// Decodes a row selected with `assetColumns`, by column index (the hot path of every scan).
    static func asset(from row: Row) -> AssetRecord? {
        let nameData: Data = row[3]
        let idText: String = row[1]
        let typeText: String = row[4]
        guard let name = FileName(bytes: Array(nameData)), let id = AssetID(idText),
              let mediaType = MediaType(rawValue: typeText) else { return nil }
        let device: Int64 = row[5]
        let inode: Int64 = row[6]
        let mode: Int64 = row[9]
        let refusal: String? = row[11]
        return AssetRecord(
            rowID: row[0], id: id, album: row[2], name: name, mediaType: mediaType,
            file: FileFacts(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), birthTime: row[10],
                            size: row[7], modificationTime: row[8], permissions: UInt32(truncatingIfNeeded: mode)),
            refusal: refusal.flatMap(LinkRefusal.init(rawValue:)))
    }
}

extension StoreTransaction {
    /// The largest asset row ID so far (0 when empty): rows above it were inserted later.
    public func maxAssetRowID() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM asset") ?? 0
    }

    /// An asset with this inode inserted after `rowID`.
    public func asset(device: UInt64, inode: UInt64, insertedAfter rowID: Int64) throws -> AssetRecord? {
        try Row.fetchOne(db, sql: "SELECT \(Self.assetColumns) FROM asset WHERE inode = ? AND device = ? AND rowid > ? LIMIT 1",
                         arguments: [Int64(bitPattern: inode), Int64(bitPattern: device), rowID]).flatMap(Self.asset(from:))
    }
}

extension StoreTransaction {
    /// The files of one album by name: the hot path of every scan and full reconcile,
    /// so it reads only what a comparison needs (no IDs or strings to decode).
    public func indexedFiles(inAlbum album: AlbumTree.ID) throws -> [FileName: IndexedFile] {
        let statement = try db.cachedStatement(sql: "SELECT rowid, name, device, inode, size, mtime, mode, btime, refusal FROM asset WHERE album = ?")
        let rows = try Row.fetchCursor(statement, arguments: [album])
        var out: [FileName: IndexedFile] = [:]
        while let row = try rows.next() {
            let nameData: Data = row[1]
            guard let name = FileName(bytes: Array(nameData)) else { continue }
            let device: Int64 = row[2]
            let inode: Int64 = row[3]
            let mode: Int64 = row[6]
            let refusal: String? = row[8]
            out[name] = IndexedFile(rowID: row[0], file: FileFacts(
                device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), birthTime: row[7], size: row[4],
                modificationTime: row[5], permissions: UInt32(truncatingIfNeeded: mode)),
                refusal: refusal.flatMap(LinkRefusal.init(rawValue:)))
        }
        return out
    }

    public func asset(rowID: Int64) throws -> AssetRecord? {
        try fetchAssets(sql: "SELECT \(Self.assetColumns) FROM asset WHERE rowid = ?", arguments: [rowID]).first
    }
}
