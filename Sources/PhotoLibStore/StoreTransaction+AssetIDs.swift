import Foundation
import GRDB
import PhotoLibCore

/// The library's asset IDs (schema v24): an asset made since has none stored, its ID being its row
/// number's under the library's key (`AssetIDPermutation`); one made before keeps the ID it had.
extension StoreTransaction {
    /// The library's key, as schema v24 made it.
    static func loadAssetIDs(_ db: Database, path: String) throws -> AssetIDPermutation {
        guard let key = try Data.fetchOne(db, sql: "SELECT assetIDKey FROM library WHERE only = 1"),
              let ids = AssetIDPermutation(key: [UInt8](key)) else {
            throw PhotoLibError.databaseFailed(path: path, detail: "the library's asset ID key is missing or not 16 bytes")
        }
        return ids
    }

    /// The library's asset IDs: the store's, or read now (a transaction made without a store, in a test).
    func assetIDs() throws -> AssetIDPermutation {
        try ids ?? Self.loadAssetIDs(db, path: path)
    }
}
