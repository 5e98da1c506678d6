/// How rows are cut into multi-row statements: each statement's row count a power of two, at most
/// `limit`, so a handful of cached statements (256, 128, …, 1 rows) serve any number of rows.
enum StatementBatches {
    /// The ranges of `rows`, in order, each one statement's.
    static func ranges(of rows: Range<Int>, limit: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = rows.lowerBound
        while start < rows.upperBound {
            let remaining = rows.upperBound - start
            let count = min(limit, 1 << (Int.bitWidth - 1 - remaining.leadingZeroBitCount))
            ranges.append(start..<start + count)
            start += count
        }
        return ranges
    }
}
