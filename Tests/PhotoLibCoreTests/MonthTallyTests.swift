import PhotoLibCore
import Testing

@Suite("Month tally: how many assets each month holds, for the jump to any month")
struct MonthTallyTests {
    /// A clock of 100-second months named "M<n>", counting how often it is asked.
    final class HundredSecondMonths {
        var asked = 0
        func month(_ seconds: Int64) -> MonthSpan? {
            asked += 1
            let index = seconds >= 0 ? seconds / 100 : (seconds - 99) / 100
            return MonthSpan(name: "M" + String(2000 + index), seconds: index * 100..<(index + 1) * 100)
        }
    }

    static func dated(_ pairs: [(Int64, Int64)]) -> [MonthTally.Dated] {
        pairs.map { MonthTally.Dated(seconds: $0.0, asset: $0.1) }
    }

    @Test("months come newest first, an asset counts once in a month however many of its files fall in it, and once in each month it is in")
    func counts() {
        let clock = HundredSecondMonths()
        let months = MonthTally.tally(Self.dated([(5, 1), (50, 1), (99, 2), (100, 3), (250, 1), (-1, 4)]), monthOf: clock.month, trustingSpansInside: 0)
        #expect(months.map(\.month) == ["M2002", "M2001", "M2000", "M1999"])
        #expect(months.map(\.assets) == [1, 1, 2, 1])
    }

    @Test("assets of any row number count as others do, a huge one or a negative one once a month too")
    func anyRowNumber() {
        let clock = HundredSecondMonths()
        let huge = Int64(1) << 50
        let months = MonthTally.tally(Self.dated([(5, huge), (6, huge), (7, -3), (8, -3), (9, 1), (150, huge)]), monthOf: clock.month,
                                      trustingSpansInside: 0)
        #expect(months.map(\.month) == ["M2001", "M2000"])
        #expect(months.map(\.assets) == [1, 3])
    }

    @Test("the clock is asked once per month, not once per photo, whatever order the times come in")
    func askedOncePerMonth() {
        let clock = HundredSecondMonths()
        var pairs: [(Int64, Int64)] = []
        for i in 0..<10_000 { pairs.append((Int64((i * 7919) % 5_000), Int64(i))) }  // 50 months, shuffled
        let months = MonthTally.tally(Self.dated(pairs), monthOf: clock.month, trustingSpansInside: 0)
        #expect(months.count == 50)
        #expect(months.reduce(0) { $0 + $1.assets } == 10_000)
        #expect(clock.asked == 50)
    }

    @Test("near a month's edges the clock names each time (an hour repeated when the clock goes back), and a time it cannot name counts nowhere")
    func clockDecides() {
        // Month "B" spans 100..<200 by its clock, but the odd seconds of 100..<110 read as "A" again
        // (the repeated hour), and 500 has no name. Spans are trusted 10 seconds inside their edges.
        let clock: (Int64) -> MonthSpan? = { seconds in
            if seconds == 500 { return nil }
            if seconds < 100 || (100..<110).contains(seconds) && seconds % 2 == 1 {
                return MonthSpan(name: "A", seconds: 0..<100)  // as mktime reads A: it ends at B's first midnight
            }
            return MonthSpan(name: "B", seconds: 100..<200)
        }
        let months = MonthTally.tally(Self.dated([(150, 1), (101, 2), (103, 3), (102, 4), (5, 5), (500, 6)]), monthOf: clock,
                                      trustingSpansInside: 10)
        #expect(months.map(\.month) == ["B", "A"])
        #expect(months.map(\.assets) == [2, 3], "101 and 103 are A's by the clock although B's span was known")
    }

    @Test("with spans trusted a day inside their edges, a month of photos taken mid-month asks the clock once")
    func dayMargin() {
        var asked = 0
        let month: (Int64) -> MonthSpan? = { seconds in
            asked += 1
            let index = seconds / 2_592_000  // 30-day months
            return MonthSpan(name: String(index), seconds: index * 2_592_000..<(index + 1) * 2_592_000)
        }
        let pairs: [(Int64, Int64)] = (0..<1_000).map { (Int64(15 * 86_400 + $0), Int64($0)) } + [(10, 5_000), (20, 5_001)]
        let months = MonthTally.tally(Self.dated(pairs), monthOf: month)
        #expect(months.map(\.assets) == [1_002])
        #expect(asked == 3, "once for mid-month, once for each of the two times within a day of the month's start")
    }
}
