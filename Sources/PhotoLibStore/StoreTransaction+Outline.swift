import GRDB
public import PhotoLibCore

/// The library's outline for the person's page: what each album holds, and how many photos each month.
extension StoreTransaction {
    /// Each album directory's own assets and its newest one (by modification time).
    public func albumContents() throws -> [AlbumTree.ID: AlbumOutline.Direct] {
        var found: [AlbumTree.ID: AlbumOutline.Direct] = [:]
        // SQLite gives the bare `asset` of the row that holds the MAX.
        for row in try Row.fetchAll(db, sql: "SELECT album, count(DISTINCT asset), asset, MAX(mtime) FROM member GROUP BY album") {
            found[row[0]] = AlbumOutline.Direct(assets: row[1], newest: (asset: row[2], mtime: row[3]))
        }
        return found
    }

    /// Every month with assets, newest first, in the process's time zone: when each was taken
    /// once looked at, else when it was last written (as `ListingFilter.takenFrom` reads it).
    public func months() throws -> [(month: String, assets: Int)] {
        try Row.fetchAll(db, sql: """
            SELECT strftime('%Y-%m', COALESCE(takenAt, mtime / 1000000000), 'unixepoch', 'localtime') AS month, count(DISTINCT asset)
            FROM member GROUP BY month ORDER BY month DESC
            """).map { (month: $0[0], assets: $0[1]) }
    }
}
