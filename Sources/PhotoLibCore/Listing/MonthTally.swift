/// One calendar month as the person's clock reads it: its name ("2024-07") and, when the clock
/// can say, the seconds it spans (the start inclusive, the end exclusive).
public struct MonthSpan: Sendable, Equatable {
    public let name: String
    public let seconds: Range<Int64>?

    public init(name: String, seconds: Range<Int64>?) {
        self.name = name
        self.seconds = seconds
    }
}

/// How many assets each month holds: the page's "Jump to month" list.
///
/// A month is named by the clock for each time (`monthOf`, the process's time zone at the edge),
/// but asked about once per month rather than once per photo: a span the clock returned answers
/// later times inside it. Only its inside is trusted, a day away from either edge: a clock that
/// goes back just after a month's first midnight names that hour with the month before, so a time
/// near an edge is always the clock's to name.
public enum MonthTally {
    /// An asset and the time it counts for (when taken, else when last written), in seconds.
    public struct Dated: Sendable, Equatable {
        public let seconds: Int64
        public let asset: Int64

        public init(seconds: Int64, asset: Int64) {
            self.seconds = seconds
            self.asset = asset
        }
    }

    /// Every month with assets, newest first, each counting an asset once however many of its files
    /// fall in it. A time the clock cannot name (nil) counts nowhere.
    public static func tally(_ dated: some Sequence<Dated>, monthOf: (Int64) -> MonthSpan?,
                             trustingSpansInside margin: Int64 = 86_400) -> [(month: String, assets: Int)] {
        var spans: [(seconds: Range<Int64>, month: Int)] = []  // sorted by start, never overlapping
        var names: [String] = []
        var numbers: [String: Int] = [:]
        // Each file as its month's number and its asset in one word, sorted below to count each asset once a month:
        // hashing 100,000 assets into sets took longer than reading them.
        var keys: [UInt64] = []
        var wide: [(month: Int, asset: Int64)] = []  // assets too large for the word, if ever
        var last: Int?
        for item in dated {
            let month: Int
            if let index = last, spans[index].seconds.contains(item.seconds) {
                month = spans[index].month
            } else if let index = span(holding: item.seconds, in: spans) {
                month = spans[index].month
                last = index
            } else {
                guard let named = monthOf(item.seconds) else { continue }
                if let known = numbers[named.name] {
                    month = known
                } else {
                    month = names.count
                    numbers[named.name] = month
                    names.append(named.name)
                }
                if let whole = named.seconds, whole.upperBound - whole.lowerBound > 2 * margin,
                   case let range = (whole.lowerBound + margin)..<(whole.upperBound - margin), range.contains(item.seconds) {
                    let position = spans.firstIndex { $0.seconds.lowerBound > range.lowerBound } ?? spans.endIndex
                    let overlaps = (position > 0 && spans[position - 1].seconds.overlaps(range))
                        || (position < spans.endIndex && spans[position].seconds.overlaps(range))
                    if !overlaps {
                        spans.insert((range, month), at: position)
                        last = position
                    }
                }
            }
            if item.asset >= 0 && item.asset < 1 << 40 && month < 1 << 23 {
                keys.append(UInt64(month) << 40 | UInt64(item.asset))
            } else {
                wide.append((month, item.asset))
            }
        }
        var counts = [Int](repeating: 0, count: names.count)
        keys.sort()
        var previous: UInt64?
        for key in keys where key != previous {
            counts[Int(key >> 40)] += 1
            previous = key
        }
        for (month, assets) in Dictionary(grouping: wide, by: \.month) {
            counts[month] += Set(assets.map(\.asset)).count
        }
        return zip(names, counts).map { (month: $0, assets: $1) }.sorted { $0.month > $1.month }
    }

    /// The index of the span holding `seconds`, by bisection.
    private static func span(holding seconds: Int64, in spans: [(seconds: Range<Int64>, month: Int)]) -> Int? {
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].seconds.upperBound <= seconds {
                low = middle + 1
            } else if spans[middle].seconds.lowerBound > seconds {
                high = middle
            } else {
                return middle
            }
        }
        return nil
    }
}
