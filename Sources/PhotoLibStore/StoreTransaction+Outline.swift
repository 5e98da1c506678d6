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

    /// Every asset's file with the time it counts for in a month: when it was taken once looked at,
    /// else when it was last written (as `ListingFilter.takenFrom` reads it). `MonthTally` names the
    /// months: SQLite's `localtime` asked for each of 100,000 rows took most of a 170 ms timeline.
    public func datedAssets() throws -> [MonthTally.Dated] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT COALESCE(takenAt, mtime / 1000000000), asset FROM member"))
        var dated: [MonthTally.Dated] = []
        while let row = try rows.next() {
            dated.append(MonthTally.Dated(seconds: row[0], asset: row[1]))
        }
        return dated
    }
}
