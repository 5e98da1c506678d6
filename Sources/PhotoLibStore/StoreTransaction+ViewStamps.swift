import GRDB
public import PhotoLibCore

/// The stamps of the views' directories, between a clean stop and the next start (`ViewStamps`).
extension StoreTransaction {
    /// Replaces any stamps kept with these (a clean stop's).
    public func recordViewStamps(_ stamps: ViewStamps) throws {
        try db.execute(sql: "DELETE FROM viewStamp; DELETE FROM viewStampEpoch")
        try db.execute(sql: "INSERT INTO viewStampEpoch (only, sentinel, fingerprint) VALUES (1, ?, ?)",
                       arguments: [stamps.sentinel, stamps.fingerprint])
        let insert = try db.cachedStatement(sql: "INSERT INTO viewStamp (app, album, device, inode, btime, ctime, mtime) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for (app, directories) in stamps.directories {
            for (album, stamp) in directories {
                try insert.execute(arguments: [app.rawValue, album, Int64(bitPattern: stamp.device), Int64(bitPattern: stamp.inode),
                                               stamp.birthTime, stamp.changeTime, stamp.modificationTime])
            }
        }
    }

    /// The stamps a clean stop left, deleted as they are read: a start that crashes after its first
    /// transaction leaves none, and the next one checks every directory. Nil when there were none.
    public func takeViewStamps() throws -> ViewStamps? {
        guard let epoch = try Row.fetchOne(db, sql: "SELECT sentinel, fingerprint FROM viewStampEpoch WHERE only = 1") else { return nil }
        var directories: [AppID: [AlbumTree.ID: ViewStamp]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT app, album, device, inode, btime, ctime, mtime FROM viewStamp")
        while let row = try rows.next() {
            guard let app = AppID(row[0] as String) else { continue }
            directories[app, default: [:]][row[1]] = ViewStamp(
                device: UInt64(bitPattern: row[2] as Int64), inode: UInt64(bitPattern: row[3] as Int64), birthTime: row[4],
                changeTime: row[5], modificationTime: row[6])
        }
        try db.execute(sql: "DELETE FROM viewStamp; DELETE FROM viewStampEpoch")
        return ViewStamps(sentinel: epoch[0], fingerprint: epoch[1], directories: directories)
    }
}
