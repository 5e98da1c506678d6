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
}
