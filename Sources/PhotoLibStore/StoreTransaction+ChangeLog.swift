import Foundation
import GRDB
public import PhotoLibCore


extension StoreTransaction {
    /// Appends an event to an app's log under the next token, pruning the log to `retention` events.
    ///
    /// `body` receives the new token, so the stored event carries it. It is stored compressed where
    /// that is smaller (`ChangeLogBody`); the event returned, and every one `events` reads, is the JSON.
    public func appendEvent(_ app: AppID, kind: LoggedEvent.Kind, retention: Int, body: (Int64) throws -> [UInt8]) throws -> LoggedEvent {
        try db.cachedStatement(sql: "UPDATE app SET lastToken = lastToken + 1 WHERE id = ?").execute(arguments: [app.rawValue])
        guard let token = try Int64.fetchOne(db.cachedStatement(sql: "SELECT lastToken FROM app WHERE id = ?"), arguments: [app.rawValue]) else {
            throw PhotoLibError.unknownApp(app)
        }
        let bytes = try body(token)
        try db.cachedStatement(sql: "INSERT INTO changeLog (app, token, kind, body) VALUES (?, ?, ?, ?)")
            .execute(arguments: [app.rawValue, token, kind.rawValue, ChangeLogBody.pack(bytes)])
        let floor = token - Int64(retention)
        if floor > 0, token % 64 == 0 || retention < 64 {
            // Prune in steps, not on every event.
            try db.execute(sql: "DELETE FROM changeLog WHERE app = ? AND token <= ?", arguments: [app.rawValue, floor])
            try db.execute(sql: "UPDATE app SET historyFloor = max(historyFloor, ?) WHERE id = ?", arguments: [floor, app.rawValue])
        }
        return LoggedEvent(token: token, kind: kind, body: bytes)
    }

    /// The app's current token and the oldest token a resume can start from.
    public func tokens(_ app: AppID) throws -> (last: Int64, floor: Int64)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT lastToken, historyFloor FROM app WHERE id = ?", arguments: [app.rawValue]) else {
            return nil
        }
        return (row[0], row[1])
    }

    /// Logged events after `token`, oldest first.
    public func events(_ app: AppID, after token: Int64) throws -> [LoggedEvent] {
        try Row.fetchAll(db, sql: "SELECT token, kind, body FROM changeLog WHERE app = ? AND token > ? ORDER BY token",
                         arguments: [app.rawValue, token]).map { row in
            let body: Data = row[2]
            let text: String = row[1]
            // Only this module writes the log; another kind there is damage, not an event to skip.
            guard let kind = LoggedEvent.Kind(rawValue: text) else {
                throw PhotoLibError.databaseFailed(path: path, detail: "the change log holds an event of unknown kind '\(text)'")
            }
            switch ChangeLogBody.unpack(body) {
            case .success(let json): return LoggedEvent(token: row[0], kind: kind, body: json)
            case .failure(let problem):
                throw PhotoLibError.databaseFailed(path: path, detail: "the change log holds \(problem) (\(app) event \(row[0] as Int64))")
            }
        }
    }
}
