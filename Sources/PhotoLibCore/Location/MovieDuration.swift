/// How long a video is, from its movie header (`moov`/`mvhd`), for the page's
/// placeholder when no frame of it can be decoded.
///
/// Tolerant on purpose: a video whose media data is cut off or damaged (the
/// usual reason no frame can be read) often still has an intact header; the
/// walk stops at the first box that makes no sense, and a `moov` found before
/// it is enough.
public enum MovieDuration {
    /// The duration in seconds, or nil when the file has no movie header before a damaged box, or says none.
    /// A read that fails (`unreadable`) is thrown: that is not a file without a duration.
    public static func seconds(_ file: some IsoMediaFile) throws(IsoMediaProblem) -> Double? {
        var offset: UInt64 = 0
        while offset + 8 <= file.size {
            let header = try file.read(at: offset, count: Int(min(16, file.size - offset)))
            guard let box = BoxHeader(tolerating: header, available: file.size - offset) else { return nil }
            if box.type == FourCC("moov") {
                guard box.size <= IsoLocationPlan.largestMetadataBox else { return nil }
                return seconds(moov: try file.read(at: offset, count: Int(box.size)), from: box.payloadStart)
            }
            offset += box.size
        }
        return nil
    }

    static func seconds(moov: [UInt8], from start: Int) -> Double? {
        var at = start
        while at + 8 <= moov.count {
            guard let box = BoxHeader(tolerating: moov, at: at, available: UInt64(moov.count - at)) else { return nil }
            let payload = at + box.payloadStart
            if box.type == FourCC("mvhd"), payload + 4 <= at + Int(box.size) {
                // Version 1 has 64-bit times and duration; version 0, 32-bit: creation, modification, timescale, duration.
                let isLong = moov[payload] == 1
                let timescaleAt = payload + 4 + (isLong ? 16 : 8)
                let durationAt = timescaleAt + 4
                guard durationAt + (isLong ? 8 : 4) <= at + Int(box.size) else { return nil }
                let timescale = readUInt32(moov, timescaleAt)
                let duration = isLong ? UInt64(readUInt32(moov, durationAt)) << 32 | UInt64(readUInt32(moov, durationAt + 4))
                                      : UInt64(readUInt32(moov, durationAt))
                // All ones means "not known" (ISO 14496-12).
                guard timescale > 0, duration > 0, duration != UInt64(UInt32.max), duration != UInt64.max else { return nil }
                return Double(duration) / Double(timescale)
            }
            at += Int(box.size)
        }
        return nil
    }

    /// "0:07", "12:30", "1:02:03": as a photo grid labels a video.
    public static func words(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}

extension BoxHeader {
    /// The header at `at`, or nil where the bytes make no box (damage this walk stops at, by design).
    init?(tolerating bytes: [UInt8], at: Int = 0, available: UInt64) {
        do {
            self = try BoxHeader(bytes, at: at, available: available)
        } catch {
            return nil  // BoxHeader throws only `malformed`
        }
    }
}
