import GRDB
public import PhotoLibCore

extension StoreTransaction {
    /// An app's rule grants, oldest first.
    public func selectedRules(_ app: AppID) throws -> [CaptureRule] {
        try Row.fetchAll(db, sql: "SELECT id, takenFrom, takenTo, mediaType FROM selectedRule WHERE app = ? ORDER BY id",
                         arguments: [app.rawValue]).map { row in
            CaptureRule(id: row["id"], from: row["takenFrom"], to: row["takenTo"], mediaType: (row["mediaType"] as String?).flatMap(MediaType.init(rawValue:)))
        }
    }

    /// Adds a rule grant (the same span and type twice is one rule); returns it and whether it is new.
    public func insertRule(_ app: AppID, from: Int64, to: Int64, mediaType: MediaType?) throws -> (rule: CaptureRule, isNew: Bool) {
        if let existing = try selectedRules(app).first(where: { $0.from == from && $0.to == to && $0.mediaType == mediaType }) {
            return (existing, false)
        }
        try db.execute(sql: "INSERT INTO selectedRule (app, takenFrom, takenTo, mediaType) VALUES (?, ?, ?, ?)",
                       arguments: [app.rawValue, from, to, mediaType?.rawValue])
        return (CaptureRule(id: db.lastInsertedRowID, from: from, to: to, mediaType: mediaType), true)
    }

    /// Removes rule grants: these, or all of the app's when nil. Returns those removed.
    public func deleteRules(_ app: AppID, ids: [Int64]?) throws -> [CaptureRule] {
        let rules = try selectedRules(app).filter { ids == nil || ids!.contains($0.id) }
        for rule in rules { try db.execute(sql: "DELETE FROM selectedRule WHERE id = ?", arguments: [rule.id]) }
        return rules
    }

    /// Whether any app has a rule grant: capture times are looked at only then.
    public func anyRules() throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM selectedRule)") ?? false
    }

    /// Member files not looked at for their capture time yet, with where they are.
    public func membersWithoutCaptureTime() throws -> [MemberRecord] {
        try fetchMembers(sql: "SELECT \(Self.memberColumns) FROM member m WHERE takenAt IS NULL", arguments: [])
    }

    public func setCaptureTime(_ seconds: Int64, memberRowID: Int64) throws {
        try db.cachedStatement(sql: "UPDATE member SET takenAt = ? WHERE rowid = ?").execute(arguments: [seconds, memberRowID])
    }
}
