/// When a photo or video was taken, read from what its metadata writes.
///
/// EXIF writes local time without a zone ("2024:07:14 10:00:00"); XMP and
/// QuickTime keys write ISO 8601, usually with one ("2024-07-14T10:00:00+02:00").
/// This parses both into fields; the system layer turns a time without a zone
/// into seconds in the local zone (`mktime`), as a camera's clock meant it.
public struct CaptureTime: Sendable, Equatable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Seconds east of UTC when the text says; nil for local time.
    public var utcOffset: Int?

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, utcOffset: Int? = nil) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.utcOffset) = (year, month, day, hour, minute, second, utcOffset)
    }

    /// Seconds between 1904-01-01 (QuickTime's epoch) and 1970-01-01.
    public static let quickTimeEpochOffset: Int64 = 2_082_844_800

    /// Parses "YYYY:MM:DD HH:MM:SS", "YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]" or a date alone.
    /// Nil for anything else, and for the all-zero dates cameras write when they do not know.
    public static func parse(_ text: String) -> CaptureTime? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              bytes.count >= 10, [0x3A, 0x2D].contains(bytes[4]), bytes[7] == bytes[4],
              (1...12).contains(month), (1...31).contains(day), year > 0 else { return nil }
        var time = CaptureTime(year: year, month: month, day: day)
        guard bytes.count > 10 else { return time }
        guard [0x20, 0x54].contains(bytes[10]), let hour = number(11, 2), let minute = number(14, 2),
              hour < 24, minute < 60 else { return nil }
        time.hour = hour
        time.minute = minute
        var at = 16
        if bytes.count >= 19, bytes[16] == 0x3A, let second = number(17, 2), second < 61 {
            time.second = second
            at = 19
        }
        if at < bytes.count, bytes[at] == 0x2E {  // fraction: ignored
            at += 1
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
        }
        if at < bytes.count {
            if bytes[at] == 0x5A {
                time.utcOffset = 0
            } else if [0x2B, 0x2D].contains(bytes[at]), let h = number(at + 1, 2), let m = number(at + 4, 2) ?? number(at + 3, 2) {
                time.utcOffset = (bytes[at] == 0x2D ? -1 : 1) * (h * 3600 + m * 60)
            }
        }
        return time
    }

    /// Seconds since the epoch for a time with its zone; nil for local time (the caller knows the zone).
    public var secondsWithOffset: Int64? {
        guard let utcOffset else { return nil }
        return Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second) - Int64(utcOffset)
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian calendar).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
