import Foundation
import GRDB
public import PhotoLibCore

/// Where photos were taken (`member.place`, the `place` table), for the person's search and page only.
extension StoreTransaction {
    /// Member files not looked at for a place yet (new, or edited since), images and videos, oldest rows first,
    /// from the row after `after` on: a pass reads on while what it looked at is still being recorded.
    public func membersWithoutPlace(after: Int64 = 0, limit: Int) throws -> [MemberRecord] {
        try fetchMembers(sql: "SELECT \(Self.memberColumns) FROM member m WHERE place IS NULL AND rowid > ? ORDER BY rowid LIMIT ?",
                         arguments: [after, limit])
    }

    /// How many member files are still to be looked at.
    public func membersWithoutPlaceCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM member WHERE place IS NULL") ?? 0
    }

    /// The IDs of the places already kept.
    public func placeIDs() throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT id FROM place"))
    }

    /// Keeps a place and its names (folded for search).
    public func insertPlace(_ place: PlaceRecord) throws {
        let names = "\n" + place.names.map(PlaceSearch.fold).joined(separator: "\n") + "\n"
        try db.execute(sql: "INSERT OR REPLACE INTO place (id, city, region, country, countryCode, names) VALUES (?,?,?,?,?,?)",
                       arguments: [place.id, place.city, place.region, place.country, place.countryCode, names])
    }

    /// Records what each look found, where the file is still the one looked at; returns how many were recorded.
    ///
    /// Many files to a statement, bound directly (`DirectWrite`): one UPDATE a file, its values boxed
    /// by GRDB, was a third of a places pass over 100,000 photos once their reading was fast.
    @discardableResult
    public func recordPlaces(_ results: [PlaceResult]) throws -> Int {
        var recorded = 0
        for batch in StatementBatches.ranges(of: results.indices, limit: Self.placeBatch) {
            let count = batch.count
            let statement = try db.cachedStatement(sql: """
                UPDATE member SET place = v.column1 FROM (VALUES \(Array(repeating: "(?,?,?,?,?)", count: count).joined(separator: ","))) AS v
                WHERE member.rowid = v.column2 AND member.inode = v.column3 AND member.size = v.column4 AND member.mtime = v.column5
                """)
            var values: [DirectWrite.Value] = []
            values.reserveCapacity(count * 5)
            for result in results[batch] {
                values += [.integer(result.finding.stored), .integer(result.member), .integer(Int64(bitPattern: result.file.inode)),
                           .integer(result.file.size), .integer(result.file.modificationTime)]
            }
            try DirectWrite(statement, in: db).run(values)
            recorded += db.changesCount
        }
        return recorded
    }

    /// The most findings one statement records (a power of two, five values each).
    static let placeBatch = 256

    /// Files that could not be read at the last look are looked at again (at each start).
    public func retryUnreadablePlaces() throws {
        try db.execute(sql: "UPDATE member SET place = NULL WHERE place = -1")
    }

    /// The places whose names (in any language) hold `text`, folded as they were.
    public func places(matching text: String) throws -> [Int64] {
        let folded = PlaceSearch.fold(text)
        guard !folded.isEmpty else { return [] }
        return try Int64.fetchAll(db, sql: "SELECT id FROM place WHERE instr(names, ?) > 0", arguments: [folded])
    }

    /// "Rennes, Brittany Region, France" for each asset with a place, by asset row (its first member with one).
    public func placeDescriptions(assets: [Int64]) throws -> [Int64: String] {
        var found: [Int64: String] = [:]
        for start in stride(from: 0, to: assets.count, by: 500) {
            let chunk = Array(assets[start..<min(start + 500, assets.count)])
            let rows = try Row.fetchAll(db, sql: """
                SELECT m.asset, p.city, p.region, p.country FROM member m JOIN place p ON p.id = m.place
                WHERE m.asset IN (\(chunk.map { _ in "?" }.joined(separator: ","))) ORDER BY m.rowid
                """, arguments: StatementArguments(chunk))
            for row in rows where found[row[0]] == nil {
                let (city, region, country): (String, String, String) = (row[1], row[2], row[3])
                found[row[0]] = PlaceRecord(id: 0, city: city, region: region, country: country, countryCode: "", names: []).described
            }
        }
        return found
    }
}

/// How place names are compared: lower case, without accents, hyphens and apostrophes as spaces
/// ("Bretagne" finds "bretagne", "Zürich" "zurich", "États-Unis" GeoNames' French "États Unis").
public enum PlaceSearch {
    public static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        let spaced = String(folded.map { separators.contains($0) ? " " : $0 })
        return spaced.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Written between the words of one name, differently from one language or keyboard to another.
    private static let separators: Set<Character> = ["-", "\u{2010}", "\u{2011}", "\u{2013}", "\u{2014}", "_", "'", "\u{2019}", "."]
}
