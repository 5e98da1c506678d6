import Foundation
import GRDB
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem
import Testing

/// The page's jump to any month: months named and counted as SQLite's `strftime(…, 'localtime')`
/// grouping named and counted them, in the process's time zone (run with TZ=Europe/Paris,
/// America/Sao_Paulo, America/Havana or Pacific/Apia to try daylight saving's edges, some at
/// midnight). Compared from 1970 to 2037 only: outside those years SQLite reads the zone's rules of
/// an equivalent year inside them (its documented approximation) while glibc reads the zone's
/// own, so a month's first hour in a zone with daylight saving may differ there, and glibc is right.
@Suite("The timeline: every month with photos, in the local time zone")
struct TimelineTests {
    static func sqliteMonth(_ db: Database, _ seconds: Int64) throws -> String? {
        try String.fetchOne(db, sql: "SELECT strftime('%Y-%m', ?, 'unixepoch', 'localtime')", arguments: [seconds])
    }

    @Test("a month's name is SQLite's, for random times and on each side of every local month's first second, 1970 to 2037")
    func namesAsSQLite() throws {
        let queue = try DatabaseQueue()
        var generator = SystemRandomNumberGenerator()
        var times: [Int64] = (0..<5_000).map { _ in Int64.random(in: 0...2_145_916_799, using: &generator) }
        for year in 1970...2037 {
            for month in 1...12 {
                var fields = tm()
                fields.tm_year = Int32(year - 1900)
                fields.tm_mon = Int32(month - 1)
                fields.tm_mday = 1
                fields.tm_isdst = -1
                let start = Int64(mktime(&fields))
                for delta: Int64 in [-7_201, -3_601, -1, 0, 1, 1_800, 3_600, 7_200] where start + delta >= 0 { times.append(start + delta) }
            }
        }
        try queue.read { db in
            for seconds in times {
                let ours = LocalTime.month(containing: seconds)
                let theirs = try Self.sqliteMonth(db, seconds)
                #expect(ours?.name == theirs, "at \(seconds)")
                if let span = ours?.seconds { #expect(span.lowerBound < span.upperBound) }
            }
        }
    }

    @Test("the store's dated assets tallied by the local clock are the months and counts of SQLite's GROUP BY over the same rows")
    func tallyAsSQLite() throws {
        let store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        // 3,000 files over 37 years, a third at a month's first hours, one in ten a second file of the asset before:
        // at the same time (one month counts it once), or in another month (each counts it).
        var written: [(seconds: Int64, link: Bool)] = []
        for index in 0..<3_000 {
            var seconds = Int64.random(in: 946_684_800...2_114_380_800, using: &generator)
            if index % 3 == 0, let month = LocalTime.month(containing: seconds), let span = month.seconds {
                seconds = span.lowerBound + Int64.random(in: -5_400...5_400, using: &generator)
            }
            if index % 20 == 1, let last = written.last { seconds = last.seconds }
            written.append((seconds, index % 10 == 1))
        }
        try store.write { tx in
            var previous: Int64?
            for (index, file) in written.enumerated() {
                let facts = FileFacts(device: 1, inode: UInt64(index + 1), size: 10, modificationTime: file.seconds * 1_000_000_000, permissions: 0o644)
                let member = try tx.insertMember(album: AlbumTree.rootID, name: FileName("IMG_\(index).jpg")!, mediaType: .image, file: facts,
                                                 joining: file.link ? previous : nil)
                previous = member.asset
            }
        }
        let dated = try store.read { try $0.datedAssets() }
        #expect(dated.count == written.count)
        let ours = MonthTally.tally(dated, monthOf: LocalTime.month(containing:))
        let queue = try DatabaseQueue()
        let theirs = try queue.write { db in
            try db.execute(sql: "CREATE TABLE dated (seconds INTEGER, asset INTEGER)")
            for item in dated { try db.execute(sql: "INSERT INTO dated VALUES (?, ?)", arguments: [item.seconds, item.asset]) }
            return try Row.fetchAll(db, sql: """
                SELECT strftime('%Y-%m', seconds, 'unixepoch', 'localtime') AS month, count(DISTINCT asset)
                FROM dated GROUP BY month ORDER BY month DESC
                """).map { (month: $0[0] as String, assets: $0[1] as Int) }
        }
        #expect(ours.map(\.month) == theirs.map(\.month))
        #expect(ours.map(\.assets) == theirs.map(\.assets))
        #expect(ours.reduce(0) { $0 + $1.assets } < written.count, "linked files counted once in a month they share")
    }
}
