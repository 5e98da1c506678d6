import GRDB
public import PhotoLibCore

extension StoreTransaction {
    /// Every grant with an end (schema v12), soonest first.
    public func expiringGrants() throws -> [ExpiringGrant] {
        var grants: [ExpiringGrant] = []
        for row in try Row.fetchAll(db, sql: "SELECT app, asset, endsAt FROM selectedAsset WHERE endsAt IS NOT NULL") {
            let app: String = row["app"]
            if let id = AppID(app) { grants.append(ExpiringGrant(app: id, kind: .asset(row["asset"]), endsAt: row["endsAt"])) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT app, album, endsAt FROM selectedAlbum WHERE endsAt IS NOT NULL") {
            let app: String = row["app"]
            if let id = AppID(app) { grants.append(ExpiringGrant(app: id, kind: .album(row["album"]), endsAt: row["endsAt"])) }
        }
        for level in [AccessLevel.readWrite, .addOnly] {
            let column = level == .readWrite ? "readWrite" : "addOnly"
            for row in try Row.fetchAll(db, sql: "SELECT id, \(column)EndsAt AS endsAt, \(column)ReturnsTo AS returnsTo FROM app WHERE \(column)EndsAt IS NOT NULL") {
                let app: String = row["id"]
                let returnsTo: String? = row["returnsTo"]
                guard let id = AppID(app), let status = returnsTo.flatMap(AuthorizationStatus.init(rawValue:)) else { continue }
                grants.append(ExpiringGrant(app: id, kind: .authorization(level, returnsTo: status), endsAt: row["endsAt"]))
            }
        }
        return grants.sorted { $0.endsAt < $1.endsAt }
    }

    /// The ends of an app's timed selections: by asset row and by album.
    public func selectionEnds(_ app: AppID) throws -> (assets: [Int64: Int64], albums: [AlbumTree.ID: Int64]) {
        var assets: [Int64: Int64] = [:]
        var albums: [AlbumTree.ID: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT asset, endsAt FROM selectedAsset WHERE app = ? AND endsAt IS NOT NULL", arguments: [app.rawValue]) {
            assets[row["asset"]] = row["endsAt"]
        }
        for row in try Row.fetchAll(db, sql: "SELECT album, endsAt FROM selectedAlbum WHERE app = ? AND endsAt IS NOT NULL", arguments: [app.rawValue]) {
            albums[row["album"]] = row["endsAt"]
        }
        return (assets, albums)
    }
}
