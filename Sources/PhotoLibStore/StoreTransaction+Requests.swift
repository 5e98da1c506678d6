import GRDB
public import PhotoLibCore

extension StoreTransaction {
    /// The app's pending request of this kind, made now if there is none:
    /// asking again while one is pending joins it. `made` is false when it existed.
    public func pendingRequest(_ app: AppID, kind: RequestKind, now: Int64) throws -> (request: AccessRequest, made: Bool) {
        if let existing = try request(app: app, kind: kind) { return (existing, false) }
        try db.execute(sql: "INSERT INTO accessRequest (app, kind, options, createdAt) VALUES (?, ?, ?, ?)",
                       arguments: [app.rawValue, kind.storageKey, kind.storageOptions, now])
        return (AccessRequest(id: db.lastInsertedRowID, app: app, kind: kind, createdAt: now), true)
    }

    /// The app's pending request of this kind (for a pick: its pending pick, whatever its options).
    public func request(app: AppID, kind: RequestKind) throws -> AccessRequest? {
        try Row.fetchOne(db, sql: "SELECT id, app, kind, options, createdAt FROM accessRequest WHERE app = ? AND kind = ?",
                         arguments: [app.rawValue, kind.storageKey]).flatMap(Self.request(from:))
    }

    public func request(id: Int64) throws -> AccessRequest? {
        try Row.fetchOne(db, sql: "SELECT id, app, kind, options, createdAt FROM accessRequest WHERE id = ?", arguments: [id])
            .flatMap(Self.request(from:))
    }

    /// Every pending request, oldest first; `app` narrows them to one app's.
    public func requests(app: AppID? = nil) throws -> [AccessRequest] {
        if let app {
            return try Row.fetchAll(db, sql: "SELECT id, app, kind, options, createdAt FROM accessRequest WHERE app = ? ORDER BY id",
                                    arguments: [app.rawValue]).compactMap(Self.request(from:))
        }
        return try Row.fetchAll(db, sql: "SELECT id, app, kind, options, createdAt FROM accessRequest ORDER BY id").compactMap(Self.request(from:))
    }

    public func requestCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM accessRequest") ?? 0
    }

    public func deleteRequest(_ id: Int64) throws {
        try db.execute(sql: "DELETE FROM accessRequest WHERE id = ?", arguments: [id])
    }

    /// Removes every pending pick, returning them: a pick is answered over the
    /// connection that asked, so after a restart none can be delivered.
    public func deletePicks() throws -> [AccessRequest] {
        let picks = try Row.fetchAll(db, sql: "SELECT id, app, kind, options, createdAt FROM accessRequest WHERE kind = 'pick'")
            .compactMap(Self.request(from:))
        try db.execute(sql: "DELETE FROM accessRequest WHERE kind = 'pick'")
        return picks
    }

    static func request(from row: Row) -> AccessRequest? {
        let appText: String = row["app"]
        let kindText: String = row["kind"]
        let options: String? = row["options"]
        guard let app = AppID(appText), let kind = RequestKind(storageKey: kindText, options: options) else { return nil }
        return AccessRequest(id: row["id"], app: app, kind: kind, createdAt: row["createdAt"])
    }
}
