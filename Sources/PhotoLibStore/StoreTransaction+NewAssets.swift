import GRDB
public import PhotoLibCore

/// New files of one album inserted as assets of their own, many rows to a statement: a scan meets
/// a whole library of them at its first start, and a directory moved in brings thousands at once.
/// One INSERT per file made SQLite open and close a statement journal for each (while a trigger
/// ran on every member insert, until v25, each was one that may change more than one row): most
/// of a first start.
extension StoreTransaction {
    /// Inserts each file as a new asset (its ID its row's permutation), and returns the assets (one member
    /// each) in the order given. A statement holds up to 256 files; its row count is a power of two, so a
    /// handful of cached statements serve every album.
    public func insertNewAssets(album: AlbumTree.ID, files: [DirectoryPlan.NewFile]) throws -> [AssetRecord] {
        var out: [AssetRecord] = []
        out.reserveCapacity(files.count)
        let ids = try assetIDs()
        for batch in StatementBatches.ranges(of: files.indices, limit: Self.newAssetBatch) {
            let chunk = files[batch]
            let assets = try insertAssetRows(chunk.map(\.mediaType), ids: ids)
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

    /// Asset rows for these types, their row numbers and IDs in order: each ID its row's under the
    /// library's key (`AssetIDPermutation`), so nothing is drawn, stored or checked against the others.
    private func insertAssetRows(_ types: [MediaType], ids: AssetIDPermutation) throws -> [(row: Int64, id: AssetID)] {
        let statement = try db.cachedStatement(sql: "INSERT INTO asset (mediaType) VALUES "
            + Array(repeating: "(?)", count: types.count).joined(separator: ","))
        try DirectWrite(statement, in: db).run(types.map { .text($0.rawValue) })
        return try insertedRows(types.count, of: "assets").map { ($0, ids.id(forRow: $0)) }
    }

    /// The row numbers the multi-row INSERT just run gave its `count` rows, in the order of its VALUES.
    /// AUTOINCREMENT makes each new row's number one more than the largest the table ever held, in
    /// that order, and this transaction is the only writer: they are the `count` numbers up to the
    /// last inserted. (RETURNING would hand them over one row at a time, in no promised order.)
    private func insertedRows(_ count: Int, of what: String) throws -> [Int64] {
        guard db.changesCount == count else {
            throw PhotoLibError.databaseFailed(path: path, detail: "\(count) \(what) inserted, \(db.changesCount) rows changed")
        }
        let last = db.lastInsertedRowID
        return Array(last - Int64(count) + 1 ... last)
    }

    /// Member rows for these files, each of its asset; their row numbers in order.
    private func insertMemberRows(album: AlbumTree.ID, _ files: ArraySlice<DirectoryPlan.NewFile>,
                                  assets: [(row: Int64, id: AssetID)]) throws -> [Int64] {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO member (\(Self.newMemberColumns)) VALUES
            \(Array(repeating: "(?,?,?,?,?,?,?,?,?,?,?,?)", count: files.count).joined(separator: ","))
            """)
        var values: [DirectWrite.Value] = []
        values.reserveCapacity(files.count * 12)
        for (file, asset) in zip(files, assets) {
            values += Self.newMemberValues(asset: asset.row, album: album, name: file.name, mediaType: file.mediaType, file: file.facts,
                                           refusal: file.refusal)
        }
        try DirectWrite(statement, in: db).run(values)
        return try insertedRows(files.count, of: "member files")
    }
}
