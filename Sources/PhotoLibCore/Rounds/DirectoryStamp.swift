/// What a verification round saw of a directory: its identity, size and modification time, and
/// when it looked. A directory's modification time moves whenever an entry is added, removed or
/// renamed in it; while it stays, its listing is the same, and only its files' own stats can show an
/// edit (written in place: the directory does not change).
public struct DirectoryStamp: Sendable, Equatable {
    public let facts: FileFacts
    /// Nanoseconds since the epoch, on this machine's clock.
    public let lookedAt: Int64

    public init(facts: FileFacts, lookedAt: Int64) {
        self.facts = facts
        self.lookedAt = lookedAt
    }

    /// How close to the look a modification time must be for the stamp not to be trusted: an entry
    /// added in the same second as the look, on a filesystem that keeps whole seconds (sshfs: SFTP
    /// gives seconds), leaves the time as it was; and a server's clock may be a little ahead.
    public static let unsettledWithin: Int64 = 2_000_000_000

    /// Whether the directory must be listed again: never seen, changed since, or seen so soon after a
    /// change that a later one could have left the same time.
    public static func mustList(recorded: DirectoryStamp?, found: FileFacts) -> Bool {
        guard let recorded else { return true }
        if recorded.facts.inode != found.inode || recorded.facts.device != found.device
            || recorded.facts.modificationTime != found.modificationTime || recorded.facts.size != found.size {
            return true
        }
        return recorded.facts.modificationTime + unsettledWithin >= recorded.lookedAt
    }
}
