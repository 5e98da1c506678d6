import Glibc
public import PhotoLibCore

/// Local wall-clock times as the system's time zone reads them.
public enum LocalTime {
    /// Seconds since the epoch for a capture time: its own zone when it has
    /// one, else the local zone (`mktime`, daylight saving decided by the date).
    public static func seconds(_ time: CaptureTime) -> Int64? {
        if let exact = time.secondsWithOffset { return exact }
        var fields = tm()
        fields.tm_year = Int32(time.year - 1900)
        fields.tm_mon = Int32(time.month - 1)
        fields.tm_mday = Int32(time.day)
        fields.tm_hour = Int32(time.hour)
        fields.tm_min = Int32(time.minute)
        fields.tm_sec = Int32(time.second)
        fields.tm_isdst = -1
        let result = mktime(&fields)
        return result == -1 ? nil : Int64(result)
    }

    /// The local calendar month holding `seconds`, named as SQLite's `strftime('%Y-%m', …, 'localtime')`
    /// and `ListingFilter.takenFrom` read it, with the seconds it spans when `mktime` can say.
    public static func month(containing seconds: Int64) -> MonthSpan? {
        var time = time_t(seconds)
        var fields = tm()
        guard localtime_r(&time, &fields) != nil else { return nil }
        let year = Int(fields.tm_year) + 1900
        let month = Int(fields.tm_mon) + 1
        let name = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year) + "-" + (month < 10 ? "0" : "") + String(month)
        let first = start(year: year, month: month)
        let next = start(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1)
        guard let first, let next, first < next else { return MonthSpan(name: name, seconds: nil) }
        return MonthSpan(name: name, seconds: first..<next)
    }

    /// Local midnight on the first of a month, daylight saving decided by the date.
    private static func start(year: Int, month: Int) -> Int64? {
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = 1
        fields.tm_isdst = -1
        let result = mktime(&fields)
        return result == -1 ? nil : Int64(result)
    }
}
