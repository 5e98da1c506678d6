/// Work retried on a timer that may fail round after round (a checkpoint of the
/// database's log, say): decides when to speak, so a failure is told once when
/// it starts and once when it ends, never once a second in between.
public struct FailureSpell: Sendable, Equatable {
    /// Rounds failed in a row, up to now.
    public private(set) var failedRounds = 0

    public init() {}

    /// Records a failed round; true when it starts a spell: the one to tell.
    public mutating func failed() -> Bool {
        failedRounds += 1
        return failedRounds == 1
    }

    /// Records a round that worked; when it ends a spell, how many rounds failed before it.
    public mutating func succeeded() -> Int? {
        defer { failedRounds = 0 }
        return failedRounds > 0 ? failedRounds : nil
    }
}
