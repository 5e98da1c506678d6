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
}
