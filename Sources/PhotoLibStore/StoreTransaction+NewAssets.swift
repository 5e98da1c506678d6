import GRDB
public import PhotoLibCore

/// New files of one album inserted as assets of their own, many rows to a statement: a scan meets
/// a whole library of them at its first start, and a directory moved in brings thousands at once.
/// One INSERT per file made SQLite open and close a statement journal for each (the member
/// trigger makes every insert one that may change more than one row): most of a first start.
extension StoreTransaction {
    /// Inserts each file as a new asset under a fresh random ID, and returns the assets (one member
    /// each) in the order given. A statement holds up to 256 files; its row count is a power of two, so a
    /// handful of cached statements serve every album.
    public func insertNewAssets<G: RandomNumberGenerator>(
        album: AlbumTree.ID, files: [DirectoryPlan.NewFile], generator: inout G
    ) throws -> [AssetRecord] {
        var out: [AssetRecord] = []
        out.reserveCapacity(files.count)
        for batch in StatementBatches.ranges(of: files.indices, limit: Self.newAssetBatch) {
            let chunk = files[batch]
            let assets = try insertAssetRows(chunk.map(\.mediaType), generator: &generator)
            let rows = try insertMemberRows(album: album, chunk, assets: assets)
            for (file, ((asset, id), row)) in zip(chunk, zip(assets, rows)) {
                let member = MemberRecord(rowID: row, asset: asset, album: album, name: file.name, mediaType: file.mediaType,
                                          file: file.facts, refusal: file.refusal)
                out.append(AssetRecord(rowID: asset, id: id, mediaType: file.mediaType, members: [member]))
            }
        }
        return out
    }

    /// The most files one statement inserts (12 values each, well under SQLite's 32,766).
    static let newAssetBatch = 256

    /// Asset rows for these types under fresh random IDs, their row numbers and IDs in order. A collision
    /// with an existing ID (or within the batch) fails the whole statement, which is drawn again.
    private func insertAssetRows<G: RandomNumberGenerator>(_ types: [MediaType], generator: inout G) throws -> [(row: Int64, id: AssetID)] {
        let statement = try db.cachedStatement(sql: "INSERT INTO asset (id, mediaType) VALUES "
            + Array(repeating: "(?,?)", count: types.count).joined(separator: ",") + " RETURNING rowid, id")
        while true {
            let ids = types.map { _ in AssetID.random(using: &generator) }
            var rowByID: [String: Int64] = [:]
            rowByID.reserveCapacity(ids.count)
            do {
                try DirectWrite(statement, in: db).run(zip(ids, types).flatMap { [.text($0.rawValue), .text($1.rawValue)] }) { row in
                    if let id = row.text(1) { rowByID[id] = row.int64(0) }
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && (error.message ?? "").contains("asset.id") {
                continue  // 80 random bits collided: draw the batch again
            }
            return try ids.map { id in
                guard let row = rowByID[id.rawValue] else {
                    throw PhotoLibError.databaseFailed(path: path, detail: "an asset inserted was not returned (ID \(id.rawValue))")
                }
                return (row, id)
            }
        }
    }

    /// Member rows for these files, each of its asset; their row numbers in order.
    private func insertMemberRows(album: AlbumTree.ID, _ files: ArraySlice<DirectoryPlan.NewFile>,
                                  assets: [(row: Int64, id: AssetID)]) throws -> [Int64] {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO member (\(Self.newMemberColumns)) VALUES
            \(Array(repeating: "(?,?,?,?,?,?,?,?,?,?,?,?)", count: files.count).joined(separator: ","))
            RETURNING rowid, name
            """)
        var values: [DirectWrite.Value] = []
        values.reserveCapacity(files.count * 12)
        for (file, asset) in zip(files, assets) {
            values += Self.newMemberValues(asset: asset.row, album: album, name: file.name, mediaType: file.mediaType, file: file.facts,
                                           refusal: file.refusal)
        }
        var rowByName: [FileName: Int64] = [:]
        rowByName.reserveCapacity(files.count)
        try DirectWrite(statement, in: db).run(values) { row in
            if let name = row.name(1) { rowByName[name] = row.int64(0) }
        }
        return try files.map { file in
            guard let row = rowByName[file.name] else {
                throw PhotoLibError.databaseFailed(path: path, detail: "a member inserted was not returned (\(file.name.escaped))")
            }
            return row
        }
    }
}
