import ArgumentParser
import Foundation
import PhotoLibCore

/// `--for DURATION` and `--until TIME`: a grant that ends by itself (SPEC §9).
struct GrantEndOptions: ParsableArguments {
    @Option(name: .customLong("for"), help: "The grant ends after this long: 90s, 15m, 2h, 1d, 2w, 1h30m.")
    var duration: String?

    @Option(help: "The grant ends at this time: 2026-11-24T18:00 (local time), 2026-11-24T18:00:00Z, or @SECONDS since 1970.")
    var until: String?

    func validate() throws {
        if duration != nil, until != nil { throw ValidationError("Give --for or --until, not both.") }
        _ = try seconds
        _ = try untilSeconds
    }

    var seconds: Int64? {
        get throws {
            guard let duration else { return nil }
            do {
                return try GrantEnd.parseDuration(duration)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    var untilSeconds: Int64? {
        get throws {
            guard let until else { return nil }
            return try Self.parseTime(until)
        }
    }

    /// A time as people write it: local (`2026-11-24T18:00`, `2026-11-24`), with its zone, or `@SECONDS`.
    static func parseTime(_ until: String) throws -> Int64 {
        if until.hasPrefix("@"), let seconds = Int64(until.dropFirst()) { return seconds }
        for format in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm",
                       "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = .current
            formatter.dateFormat = format
            if let date = formatter.date(from: until) { return Int64(date.timeIntervalSince1970.rounded(.down)) }
        }
        throw ValidationError("'\(until)' is not a time; write 2026-11-24T18:00 (local time), 2026-11-24T18:00:00Z, or @SECONDS since 1970.")
    }

    /// How the end reads in a sentence: " until 2026-11-24T18:00:00Z", or "".
    static func describe(_ endsAt: Int64?) -> String {
        endsAt.map { " until \(Output.date($0 * 1_000_000_000))" } ?? ""
    }
}
