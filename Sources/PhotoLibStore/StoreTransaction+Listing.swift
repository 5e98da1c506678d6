import Foundation
import GRDB
public import PhotoLibCore



extension StoreTransaction {
    /// The keys of every asset `filter` holds, in no particular order.
    public func listingKeys(_ filter: ListingFilter) throws -> [ListingKey] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        var memberClauses: [String] = []
        if let albums = filter.albums {
            memberClauses.append("album IN (\(albums.map { _ in "?" }.joined(separator: ",")))")
            arguments += albums.map { $0 as any DatabaseValueConvertible }
        }
        if let name = filter.nameContains, !name.isEmpty {
            // Both sides folded by `NameFolding`: a byte comparison, case-insensitive for ASCII letters.
            var either = "instr(folded, ?) > 0"
            arguments.append(Data(NameFolding.fold(name)))
            if let matching = filter.orInAlbums, !matching.isEmpty {
                either += " OR album IN (\(matching.map { _ in "?" }.joined(separator: ",")))"
                arguments += matching.map { $0 as any DatabaseValueConvertible }
            }
            if let places = filter.orInPlaces, !places.isEmpty {
                either += " OR place IN (\(places.map { _ in "?" }.joined(separator: ",")))"
                arguments += places.map { $0 as any DatabaseValueConvertible }
            }
            either = "(\(either))"
            memberClauses.append(either)
        }
        if filter.takenFrom != nil || filter.takenTo != nil {
            memberClauses.append("COALESCE(takenAt, mtime / 1000000000) >= ? AND COALESCE(takenAt, mtime / 1000000000) < ?")
            arguments.append(filter.takenFrom ?? Int64.min)
            arguments.append(filter.takenTo ?? Int64.max)
        }
        if !memberClauses.isEmpty {
            conditions.append("m.asset IN (SELECT asset FROM member WHERE \(memberClauses.joined(separator: " AND ")))")
        }
        if let type = filter.mediaType {
            conditions.append("m.asset IN (SELECT rowid FROM asset WHERE mediaType = ?)")
            arguments.append(type.rawValue)
        }
        if filter.refusedOnly {
            conditions.append("m.asset IN (SELECT asset FROM member WHERE refusal IS NOT NULL)")
        }
        if filter.withheldOnly {
            // LocationCheck.isCurrent, in SQL: a check counts for the content it was made for.
            conditions.append("""
                m.asset IN (SELECT w.asset FROM member w JOIN locationCheck c ON c.member = w.rowid
                            WHERE c.outcome = 'cannotTell' AND c.inode = w.inode AND c.size = w.size AND c.mtime = w.mtime
                                  AND (c.mode IS NULL OR c.mode = w.mode))
                """)
        }
        let sql = "SELECT m.asset, m.album, m.name, m.mediaType, m.mtime, m.rowid FROM member m"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        let statement = conditions.isEmpty ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
        let row = CurrentRow(statement)  // every member of the library, for the unfiltered grid
        var keys: [ListingKey] = []
        var rank: [Int64] = []  // the member row that gave each key: the primary is the image, then the lowest row
        var place: [Int64: Int] = [:]
        while try rows.next() != nil {
            let asset = row.int64(0)
            let isImage = row.text(3) == MediaType.image.rawValue
            let memberRow = row.int64(5)
            let order = isImage ? memberRow : memberRow + (Int64.max / 2)
            let key = ListingKey(rowID: asset, album: row.int64(1), name: row.bytes(2), modificationTime: row.int64(4))
            if let index = place[asset] {
                if order < rank[index] { (keys[index], rank[index]) = (key, order) }
            } else {
                place[asset] = keys.count
                keys.append(key)
                rank.append(order)
            }
        }
        return keys
    }

    /// The assets with these rows, in the order given (a row that no longer exists is left out).
    public func assets(rowIDs: [Int64]) throws -> [AssetRecord] {
        var found: [Int64: AssetRecord] = [:]
        for start in stride(from: 0, to: rowIDs.count, by: 500) {
            let chunk = Array(rowIDs[start..<min(start + 500, rowIDs.count)])
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            for record in try fetchAssets(where: "a.rowid IN (\(marks))", arguments: StatementArguments(chunk), cached: false) {
                found[record.rowID] = record
            }
        }
        return rowIDs.compactMap { found[$0] }
    }

    /// The location checks of these member files, by member row.
    public func locationChecks(members: [Int64]) throws -> [Int64: LocationCheck] {
        var result: [Int64: LocationCheck] = [:]
        for start in stride(from: 0, to: members.count, by: 500) {
            let chunk = Array(members[start..<min(start + 500, members.count)])
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            for (member, check) in try fetchLocationChecks(where: "member IN (\(marks))", arguments: StatementArguments(chunk)) {
                result[member] = check
            }
        }
        return result
    }
}
