/// The private copies a file-chooser pick hands over, and when they go.
///
/// Each pick's copies sit in a directory of their own, named for the second
/// they expire at and a random token (`1764160000-3f9a…`), so the schedule
/// survives a restart of the backend: what is due is read from the names.
public struct PickShelf: Sendable, Equatable {
    /// One pick's directory.
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// Seconds since the epoch at which its copies are removed.
        public var expiresAt: Int64

        public init(name: String, expiresAt: Int64) {
            self.name = name
            self.expiresAt = expiresAt
        }
    }

    public private(set) var entries: [Entry]

    public init(names: [String]) {
        entries = names.compactMap(Self.entry(named:)).sorted { $0.expiresAt < $1.expiresAt }
    }

    /// A new pick's directory name.
    public static func name(expiresAt: Int64, token: String) -> String { "\(expiresAt)-\(token)" }

    /// The entry a directory name stands for; nil for a name this shelf never makes (left alone).
    public static func entry(named name: String) -> Entry? {
        let parts = name.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let seconds = Int64(parts[0]), seconds > 0, !parts[1].isEmpty,
              parts[1].allSatisfy({ $0.isHexDigit }) else { return nil }
        return Entry(name: name, expiresAt: seconds)
    }

    public mutating func add(_ entry: Entry) {
        entries.append(entry)
        entries.sort { $0.expiresAt < $1.expiresAt }
    }

    /// Takes off the shelf what is due at `now`.
    public mutating func takeDue(at now: Int64) -> [Entry] {
        let due = entries.prefix { $0.expiresAt <= now }
        entries.removeFirst(due.count)
        return Array(due)
    }

    /// When the next entry is due; nil when the shelf is empty.
    public var nextDue: Int64? { entries.first?.expiresAt }

    /// A copy's file name: the original's where it is a plain, visible file
    /// name, else `picked-N`; told apart from an earlier one of the same pick
    /// (`IMG_0001 (2).JPG`), as a file manager would.
    public static func copyName(_ original: String, position: Int, used: inout Set<String>) -> String {
        let plain = FileName(original).flatMap { _ in original.hasPrefix(".") ? nil : original } ?? "picked-\(position + 1)"
        var name = plain
        var number = 2
        while used.contains(name) {
            let dot = plain.lastIndex(of: ".").map { plain.distance(from: plain.startIndex, to: $0) } ?? plain.count
            name = String(plain.prefix(dot)) + " (\(number))" + String(plain.dropFirst(dot))
            number += 1
        }
        used.insert(name)
        return name
    }

    /// The `file://` URI of an absolute path, each byte outside RFC 3986's unreserved set (and `/`) percent-encoded.
    public static func fileURI(of path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
