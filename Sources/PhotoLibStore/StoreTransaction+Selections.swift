import Foundation
import GRDB
public import PhotoLibCore

extension StoreTransaction {
    /// Adds assets to an app's selection; returns the row IDs that were not
    /// selected before. `endsAt` is when the grant ends (nil: it lasts); it
    /// replaces the end of an asset already selected: the latest edit decides.
    public func selectAssets(_ app: AppID, rowIDs: [Int64], endsAt: Int64? = nil) throws -> [Int64] {
        try selectionsChange("selectedAsset")
        var added: [Int64] = []
        for rowID in rowIDs {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO selectedAsset (app, asset, endsAt) VALUES (?, ?, ?)")
                .execute(arguments: [app.rawValue, rowID, endsAt])
            if db.changesCount > 0 {
                added.append(rowID)
            } else {
                try db.cachedStatement(sql: "UPDATE selectedAsset SET endsAt = ? WHERE app = ? AND asset = ?")
                    .execute(arguments: [endsAt, app.rawValue, rowID])
            }
        }
        return added
    }

    /// Removes assets from an app's selection; returns the row IDs that were selected.
    public func deselectAssets(_ app: AppID, rowIDs: [Int64]) throws -> [Int64] {
        try selectionsChange("selectedAsset")
        var removed: [Int64] = []
        for rowID in rowIDs {
            try db.cachedStatement(sql: "DELETE FROM selectedAsset WHERE app = ? AND asset = ?").execute(arguments: [app.rawValue, rowID])
            if db.changesCount > 0 { removed.append(rowID) }
        }
        return removed
    }

    /// As `selectAssets`, for albums (their grants are live).
    public func selectAlbums(_ app: AppID, albums: [AlbumTree.ID], endsAt: Int64? = nil) throws -> [AlbumTree.ID] {
        try selectionsChange("selectedAlbum")
        var added: [AlbumTree.ID] = []
        for album in albums {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO selectedAlbum (app, album, endsAt) VALUES (?, ?, ?)")
                .execute(arguments: [app.rawValue, album, endsAt])
            if db.changesCount > 0 {
                added.append(album)
            } else {
                try db.cachedStatement(sql: "UPDATE selectedAlbum SET endsAt = ? WHERE app = ? AND album = ?")
                    .execute(arguments: [endsAt, app.rawValue, album])
            }
        }
        return added
    }

    public func deselectAlbums(_ app: AppID, albums: [AlbumTree.ID]) throws -> [AlbumTree.ID] {
        try selectionsChange("selectedAlbum")
        var removed: [AlbumTree.ID] = []
        for album in albums {
            try db.cachedStatement(sql: "DELETE FROM selectedAlbum WHERE app = ? AND album = ?").execute(arguments: [app.rawValue, album])
            if db.changesCount > 0 { removed.append(album) }
        }
        return removed
    }

    /// Tells the store's observers (`AppStateWatch`) that a selection table is written: SQLite reports
    /// no row of a WITHOUT ROWID table, so every statement that writes one is preceded by this.
    func selectionsChange(_ table: String) throws {
        try db.notifyChanges(in: Table(table))
    }

    /// Whether the asset is in the app's selection one by one.
    public func isSelected(_ app: AppID, asset rowID: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM selectedAsset WHERE app = ? AND asset = ?)", arguments: [app.rawValue, rowID]) ?? false
    }

    public func selectedAssetRowIDs(_ app: AppID) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT asset FROM selectedAsset WHERE app = ?", arguments: [app.rawValue]))
    }

    public func selectedAlbums(_ app: AppID) throws -> Set<AlbumTree.ID> {
        Set(try Int64.fetchAll(db, sql: "SELECT album FROM selectedAlbum WHERE app = ?", arguments: [app.rawValue]))
    }

    /// The individually selected assets of an app, by ID.
    public func selectedAssets(_ app: AppID) throws -> [AssetRecord] {
        try fetchAssets(where: "a.rowid IN (SELECT asset FROM selectedAsset WHERE app = ?)", arguments: [app.rawValue])
            .sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// Everything a limited app may see: its selected assets, every asset
    /// in a selected album or below it (album grants are live), and every asset
    /// one of its rules matches (a superset: `ViewPolicy` judges a rule by the
    /// asset's primary member, which this does not single out).
    ///
    /// The rules' branch starts from the app's rules (`CROSS JOIN` fixes SQLite's
    /// order): left to the planner, it scanned every member of the library to
    /// join the rules, 15 ms at 100,000 files for an app with none.
    public func visibleAssets(limitedApp app: AppID) throws -> [AssetRecord] {
        try fetchAssets(where: """
            a.rowid IN (
                WITH RECURSIVE granted(id) AS (
                    SELECT album FROM selectedAlbum WHERE app = ?1
                    UNION SELECT album.id FROM album JOIN granted ON album.parent = granted.id
                )
                SELECT asset FROM member WHERE album IN granted
                UNION SELECT asset FROM selectedAsset WHERE app = ?1
                UNION SELECT m.asset FROM selectedRule r CROSS JOIN member m CROSS JOIN asset ra ON ra.rowid = m.asset
                    WHERE r.app = ?1 AND m.takenAt >= r.takenFrom AND m.takenAt < r.takenTo AND (r.mediaType IS NULL OR r.mediaType = ra.mediaType)
            )
            """, arguments: [app.rawValue])
    }
}
