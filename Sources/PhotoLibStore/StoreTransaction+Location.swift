import GRDB
public import PhotoLibCore

extension StoreTransaction {
    /// Every location check, by member file row.
    public func locationChecks() throws -> [Int64: LocationCheck] {
        Dictionary(uniqueKeysWithValues: try fetchLocationChecks(where: "1"))
    }

    func fetchLocationChecks(where condition: String, arguments: StatementArguments = StatementArguments()) throws -> [(Int64, LocationCheck)] {
        let sql = "SELECT member, inode, size, mtime, mode, outcome, derivedInode, derivedSize, problem FROM locationCheck WHERE \(condition)"
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let outcome: LocationCheck.Outcome
            switch row["outcome"] as String {
            case "none": outcome = .noLocation
            case "derived":
                let inode: Int64 = row["derivedInode"]
                outcome = .derived(inode: UInt64(bitPattern: inode), size: row["derivedSize"])
            default: outcome = .cannotTell(row["problem"] ?? "not known")
            }
            let inode: Int64 = row["inode"]
            let mode: Int64? = row["mode"]
            return (row["member"], LocationCheck(inode: UInt64(bitPattern: inode), size: row["size"], modificationTime: row["mtime"],
                                                 permissions: mode.map { UInt32(truncatingIfNeeded: $0) }, outcome: outcome))
        }
    }

    /// Stores a check (nil: forgets it), for a member file that still exists.
    public func setLocationCheck(_ check: LocationCheck?, memberRowID: Int64) throws {
        guard let check else {
            try db.cachedStatement(sql: "DELETE FROM locationCheck WHERE member = ?").execute(arguments: [memberRowID])
            return
        }
        var outcome = "none", derivedInode: Int64?, derivedSize: Int64?, problem: String?
        switch check.outcome {
        case .noLocation: break
        case .derived(let inode, let size): (outcome, derivedInode, derivedSize) = ("derived", Int64(bitPattern: inode), size)
        case .cannotTell(let reason): (outcome, problem) = ("cannotTell", reason)
        }
        // Cached: a directory moved in records one check per file, and parsing this each time was most of that write.
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO locationCheck (member, inode, size, mtime, mode, outcome, derivedInode, derivedSize, problem)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM member WHERE rowid = ?)
            """).execute(arguments: [memberRowID, Int64(bitPattern: check.inode), check.size, check.modificationTime, check.permissions.map { Int64($0) },
                             outcome, derivedInode, derivedSize, problem, memberRowID])
    }
}
