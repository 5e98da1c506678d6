import GRDB
public import PhotoLibCore


extension StoreTransaction {
    public func logAccess(_ entries: [AccessLogEntry]) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO accessLog (app, asset, how, request, at) VALUES (?, ?, ?, ?, ?)")
        for entry in entries {
            try statement.execute(arguments: [entry.app.rawValue, entry.asset.rawValue, entry.how.rawValue, entry.request, entry.at])
        }
    }

    /// The log, oldest first; `app` narrows it to one app's, `since` to entries at or after it.
    public func accessLog(app: AppID? = nil, since: Int64 = 0) throws -> [AccessLogEntry] {
        var sql = "SELECT app, asset, how, request, at FROM accessLog WHERE at >= ?"
        var arguments: StatementArguments = [since]
        if let app {
            sql += " AND app = ?"
            arguments += [app.rawValue]
        }
        return try Row.fetchAll(db, sql: sql + " ORDER BY id", arguments: arguments).compactMap { row in
            let appText: String = row["app"]
            let assetText: String = row["asset"]
            let howText: String = row["how"]
            guard let app = AppID(appText), let asset = AssetID(assetText) else { return nil }
            // Only this module writes the log; another spelling there is damage, not a line to show.
            guard let how = AccessLogEntry.How(rawValue: howText) else {
                throw PhotoLibError.databaseFailed(path: path, detail: "the access log holds a line of unknown kind '\(howText)'")
            }
            return AccessLogEntry(app: app, asset: asset, how: how, request: row["request"], at: row["at"])
        }
    }

    /// Drops entries older than `before` (retention).
    public func pruneAccessLog(before: Int64) throws {
        try db.execute(sql: "DELETE FROM accessLog WHERE at < ?", arguments: [before])
    }
}
