/// When the next verification round runs: `base` after a round that found a change (and at first),
/// twice as long after each one that found none, up to `longest`; a change found brings it back to
/// `base`. A NAS nobody touches is looked at less and less often, one in use as often as asked.
public struct RoundSchedule: Sendable, Equatable {
    /// Milliseconds.
    public let base: Int64
    public let longest: Int64
    /// Milliseconds until the next round.
    public private(set) var interval: Int64

    /// `base` in milliseconds (at least one second); rounds back off to four times it.
    public init(base: Int64) {
        self.base = max(base, 1_000)
        longest = self.base * 4
        interval = self.base
    }

    public mutating func roundEnded(foundChanges: Bool) {
        interval = foundChanges ? base : min(interval * 2, longest)
    }
}
