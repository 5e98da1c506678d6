import Foundation
import GRDB
public import PhotoLibCore

extension StoreTransaction {
    public func appCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM app") ?? 0
    }

    public func apps() throws -> [AppRecord] {
        try Row.fetchAll(db, sql: "SELECT id, uid, purpose, readWrite, addOnly, viewName, location, idKey, flatpakPictures, picturesOverride, captions FROM app ORDER BY id").compactMap(Self.app(from:))
    }

    public func app(_ id: AppID) throws -> AppRecord? {
        try Row.fetchOne(db, sql: "SELECT id, uid, purpose, readWrite, addOnly, viewName, location, idKey, flatpakPictures, picturesOverride, captions FROM app WHERE id = ?", arguments: [id.rawValue])
            .flatMap(Self.app(from:))
    }

    public func apps(uid: UInt32) throws -> [AppRecord] {
        try Row.fetchAll(db, sql: "SELECT id, uid, purpose, readWrite, addOnly, viewName, location, idKey, flatpakPictures, picturesOverride, captions FROM app WHERE uid = ? ORDER BY id",
                         arguments: [Int64(uid)]).compactMap(Self.app(from:))
    }

    /// Registers an app. An app ID used before starts one past its old last
    /// token, with the history floor there: every old token, the last one
    /// included, is below the floor and gets a reset (the old view is gone).
    public func insertApp(_ app: AppRecord, createdAt: Int64) throws {
        let retired = try Int64.fetchOne(db, sql: "SELECT lastToken + 1 FROM retiredApp WHERE id = ?", arguments: [app.id.rawValue]) ?? 0
        try db.execute(sql: """
            INSERT INTO app (id, uid, purpose, readWrite, addOnly, createdAt, lastToken, historyFloor, viewName, location, idKey, flatpakPictures)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """, arguments: [app.id.rawValue, Int64(app.uid), app.purpose, app.readWrite.rawValue, app.addOnly.rawValue, createdAt,
                             retired, retired, Data(app.viewName.bytes), app.location.rawValue, Data(app.assetIDs.key),
                             app.flatpakPictures])
    }

    public func deleteApp(_ id: AppID) throws {
        try db.execute(sql: """
            INSERT INTO retiredApp (id, lastToken) SELECT id, lastToken FROM app WHERE id = ?
            ON CONFLICT (id) DO UPDATE SET lastToken = max(lastToken, excluded.lastToken)
            """, arguments: [id.rawValue])
        try db.execute(sql: "DELETE FROM app WHERE id = ?", arguments: [id.rawValue])
    }

    /// Whether captions and people's names leave with the app's picks when the person says nothing.
    public func setCaptions(_ id: AppID, shared: Bool) throws {
        try db.execute(sql: "UPDATE app SET captions = ? WHERE id = ?", arguments: [shared, id.rawValue])
    }

    public func setLocation(_ id: AppID, _ policy: LocationPolicy) throws {
        try db.execute(sql: "UPDATE app SET location = ? WHERE id = ?", arguments: [policy.rawValue, id.rawValue])
    }

    /// Sets a status; with `endsAt`, until then, after which it returns to
    /// `returnsTo` (`ExpiringGrant.returnStatus`). Without, it lasts.
    public func setAuthorization(_ id: AppID, access: AccessLevel, status: AuthorizationStatus,
                                 endsAt: Int64? = nil, returnsTo: AuthorizationStatus? = nil) throws {
        let column = access == .readWrite ? "readWrite" : "addOnly"
        try db.execute(sql: "UPDATE app SET \(column) = ?, \(column)EndsAt = ?, \(column)ReturnsTo = ? WHERE id = ?",
                       arguments: [status.rawValue, endsAt, endsAt == nil ? nil : returnsTo?.rawValue, id.rawValue])
    }

    /// A timed status's end and the status it returns to, or nil when it lasts.
    public func authorizationEnd(_ id: AppID, access: AccessLevel) throws -> (endsAt: Int64, returnsTo: AuthorizationStatus)? {
        let column = access == .readWrite ? "readWrite" : "addOnly"
        guard let row = try Row.fetchOne(db, sql: "SELECT \(column)EndsAt AS endsAt, \(column)ReturnsTo AS returnsTo FROM app WHERE id = ?",
                                         arguments: [id.rawValue]),
              let endsAt: Int64 = row["endsAt"], let text: String = row["returnsTo"], let status = AuthorizationStatus(rawValue: text)
        else { return nil }
        return (endsAt, status)
    }

    static func app(from row: Row) -> AppRecord? {
        let idText: String = row["id"]
        let uid: Int64 = row["uid"]
        let readWrite: String = row["readWrite"]
        let addOnly: String = row["addOnly"]
        let viewName: Data = row["viewName"]
        let location: String = row["location"]
        let idKey: Data = row["idKey"]
        guard let id = AppID(idText), let rw = AuthorizationStatus(rawValue: readWrite),
              let ao = AuthorizationStatus(rawValue: addOnly), let view = FileName(bytes: Array(viewName)),
              let policy = LocationPolicy(rawValue: location), let ids = AppAssetIDs(key: Array(idKey)) else { return nil }
        var record = AppRecord(id: id, uid: UInt32(truncatingIfNeeded: uid), purpose: row["purpose"], readWrite: rw, addOnly: ao,
                               viewName: view, location: policy, assetIDs: ids)
        record.flatpakPictures = row["flatpakPictures"]
        record.captions = row["captions"]
        return record
    }

    /// Whether some library file was last modified at exactly this time (nanoseconds): how a
    /// Flatpak Pictures folder's copies, which keep their original's time, are told from the app's files.
    public func isMemberModificationTime(_ time: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM member WHERE mtime = ?)", arguments: [time]) ?? false
    }

    /// What photolibd added to an app's Flatpak user override, to be removed exactly; nil when nothing.
    public func picturesOverride(_ id: AppID) throws -> PicturesOverride? {
        guard let text = try String.fetchOne(db, sql: "SELECT picturesOverride FROM app WHERE id = ?", arguments: [id.rawValue]) else { return nil }
        // Thrown, never taken for "nothing recorded": photolibd's lines would then look like the person's and stay.
        return try JSONDecoder().decode(PicturesOverride.self, from: Data(text.utf8))
    }

    public func setPicturesOverride(_ id: AppID, _ record: PicturesOverride?) throws {
        let text = try record.flatMap { $0.edits.isEmpty ? nil : String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.execute(sql: "UPDATE app SET picturesOverride = ? WHERE id = ?", arguments: [text, id.rawValue])
    }
}
