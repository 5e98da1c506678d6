import GRDB

/// The directories photolibd created above the views, which it keeps passable for app uids.
///
/// Paths as configured (text): they come from the configuration, not from a directory listing.
extension StoreTransaction {
    public func recordMadeDirectories(_ paths: [String]) throws {
        for path in paths {
            try db.execute(sql: "INSERT OR IGNORE INTO madeDirectory (path) VALUES (?)", arguments: [path])
        }
    }

    /// Outermost first.
    public func madeDirectories() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT path FROM madeDirectory ORDER BY length(path), path")
    }
}
