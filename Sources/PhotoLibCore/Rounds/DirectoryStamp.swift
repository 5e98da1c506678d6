/// What a verification round saw of a directory: its identity, size and modification time, and
/// when it looked. A directory's modification time moves whenever an entry is added, removed or
/// renamed in it; while it stays, its listing is the same, and only its files' own stats can show an
/// edit (written in place: the directory does not change).
///
/// A stamp taken when the directory is listed again is confirmed by the next round's listing before
/// it is trusted alone: a network filesystem answers a directory's stat and its listing from caches
/// of their own (sshfs keeps each for `dcache_timeout`), so the listing made after a stamp moved may
/// be older than the stamp.
public struct DirectoryStamp: Sendable, Equatable {
    public let facts: FileFacts
    /// Nanoseconds since the epoch, on this machine's clock.
    public let lookedAt: Int64
    /// Whether a listing made after this stamp was seen found it unchanged.
    public let confirmed: Bool

    public init(facts: FileFacts, lookedAt: Int64, confirmed: Bool = true) {
        self.facts = facts
        self.lookedAt = lookedAt
        self.confirmed = confirmed
    }

    /// How close to the look a modification time must be for the stamp not to be trusted: an entry
    /// added in the same second as the look, on a filesystem that keeps whole seconds (sshfs: SFTP
    /// gives seconds), leaves the time as it was; and a server's clock may be a little ahead.
    public static let unsettledWithin: Int64 = 2_000_000_000

    /// Whether the directory must be listed again: never seen, changed since, not confirmed by a
    /// listing yet, or seen so soon after a change that a later one could have left the same time.
    public static func mustList(recorded: DirectoryStamp?, found: FileFacts) -> Bool {
        guard let recorded, recorded.confirmed else { return true }
        if recorded.facts.inode != found.inode || recorded.facts.device != found.device
            || recorded.facts.modificationTime != found.modificationTime || recorded.facts.size != found.size {
            return true
        }
        return recorded.facts.modificationTime + unsettledWithin >= recorded.lookedAt
    }
}

extension DirectoryStamp {
    /// The stamp a round records for a directory it looked at: `listed` when it asks for a listing
    /// now (then a first stamp, or one that moved, waits for the next round's listing to confirm it).
    public static func recorded(recorded: DirectoryStamp?, found: FileFacts, lookedAt: Int64, listed: Bool) -> DirectoryStamp {
        guard listed else { return recorded ?? DirectoryStamp(facts: found, lookedAt: lookedAt) }
        let unchanged = recorded.map { $0.facts == found } ?? false
        return DirectoryStamp(facts: found, lookedAt: lookedAt, confirmed: unchanged)
    }
}
