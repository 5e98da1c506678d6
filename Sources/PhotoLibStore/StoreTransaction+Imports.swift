import Foundation
import GRDB
public import PhotoLibCore


extension StoreTransaction {
    /// Records an import about to copy: returns its number (which names the temporary copy).
    public func beginImport(
        _ app: AppID, source: FileName, device: UInt64, inode: UInt64, birth: Int64?, album: RelativePath, at: Int64
    ) throws -> Int64 {
        try db.execute(sql: """
            INSERT INTO inboxImport (app, sourceName, sourceDevice, sourceInode, sourceBirth, album, state, at)
            VALUES (?, ?, ?, ?, ?, ?, 'copying', ?)
            """, arguments: [app.rawValue, Data(source.bytes), Int64(bitPattern: device), Int64(bitPattern: inode), birth, album.escaped, at])
        return db.lastInsertedRowID
    }

    /// Whether this very inbox file (same name, device, inode and birth time)
    /// was taken in already: the daemon stopped after recording the import
    /// and before removing the file. Birth time tells it from a later file
    /// given the same, freed, inode number.
    public func wasImported(_ app: AppID, source: FileName, device: UInt64, inode: UInt64, birth: Int64?) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM inboxImport WHERE app = ? AND sourceInode = ? AND sourceDevice = ? AND sourceName = ?
                           AND sourceBirth IS ? AND state IN ('added', 'accepted'))
            """, arguments: [app.rawValue, Int64(bitPattern: inode), Int64(bitPattern: device), Data(source.bytes), birth]) ?? false
    }

    /// The name the copy is about to be renamed to, written before each attempt.
    public func setImportTarget(_ id: Int64, name: FileName, copyInode: UInt64, bytes: Int64) throws {
        try db.execute(sql: "UPDATE inboxImport SET targetName = ?, copyInode = ?, bytes = ? WHERE id = ?",
                       arguments: [Data(name.bytes), Int64(bitPattern: copyInode), bytes, id])
    }

    public func finishImport(_ id: Int64, state: ImportRecord.State, asset: AssetID?, code: String? = nil) throws {
        try db.execute(sql: "UPDATE inboxImport SET state = ?, asset = ?, code = ? WHERE id = ?",
                       arguments: [state.rawValue, asset?.rawValue, code, id])
    }

    /// Forgets an import that never got as far as a copy (it will be tried again).
    public func dropImport(_ id: Int64) throws {
        try db.execute(sql: "DELETE FROM inboxImport WHERE id = ?", arguments: [id])
    }

    /// Records a refused file (it costs no quota).
    public func recordRejectedImport(_ app: AppID, source: FileName, bytes: Int64, code: String, at: Int64) throws {
        try db.execute(sql: """
            INSERT INTO inboxImport (app, sourceName, sourceDevice, sourceInode, album, bytes, state, code, at)
            VALUES (?, ?, 0, 0, '', ?, 'rejected', ?, ?)
            """, arguments: [app.rawValue, Data(source.bytes), bytes, code, at])
    }

    /// Imports under way (after a crash: to finish or to undo).
    public func unfinishedImports() throws -> [ImportRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM inboxImport WHERE state = 'copying' ORDER BY id").compactMap(Self.importRecord(from:))
    }

    /// What an app added (accepted or under way) since `since`: its quota's use.
    public func importUsage(_ app: AppID, since: Int64) throws -> InboxUsage {
        let row = try Row.fetchOne(db, sql: """
            SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes FROM inboxImport
            WHERE app = ? AND at >= ? AND state != 'rejected'
            """, arguments: [app.rawValue, since])
        return InboxUsage(files: row?["files"] ?? 0, bytes: row?["bytes"] ?? 0)
    }

    /// Drops finished rows older than `before` (the quota looks back one day).
    public func pruneImports(before: Int64) throws {
        try db.execute(sql: "DELETE FROM inboxImport WHERE at < ? AND state != 'copying'", arguments: [before])
    }

    static func importRecord(from row: Row) -> ImportRecord? {
        let appText: String = row["app"]
        let sourceBytes: Data = row["sourceName"]
        let albumText: String = row["album"]
        let stateText: String = row["state"]
        guard let app = AppID(appText), let source = FileName(bytes: Array(sourceBytes)),
              let album = RelativePath(escaped: albumText), let state = ImportRecord.State(rawValue: stateText) else { return nil }
        let target: Data? = row["targetName"]
        let copyInode: Int64? = row["copyInode"]
        let device: Int64 = row["sourceDevice"]
        let inode: Int64 = row["sourceInode"]
        return ImportRecord(
            id: row["id"], app: app, sourceName: source, sourceDevice: UInt64(bitPattern: device), sourceInode: UInt64(bitPattern: inode),
            sourceBirth: row["sourceBirth"], album: album, targetName: target.flatMap { FileName(bytes: Array($0)) }, copyInode: copyInode.map { UInt64(bitPattern: $0) },
            bytes: row["bytes"], state: state, at: row["at"])
    }
}
