/// When a helper process that ended (or could not be started) is started again.
///
/// One that ran a while is replaced at once: a crash now and then costs one rescan. One that
/// ends soon after it started (a kernel without seccomp, a preloaded library making a call its
/// filter forbids) would otherwise be replaced at once for ever, each time rebuilding every watch,
/// rescanning the library and telling every subscriber to reload: it waits `initialDelay`
/// seconds, doubling up to `maximumDelay`, until one lives `stableAfter` seconds.
public struct RestartBackoff: Sendable, Equatable {
    /// A helper that lived this long is not failing: the next one starts at once.
    public static let stableAfter = 30.0
    public static let initialDelay = 1.0
    public static let maximumDelay = 60.0

    /// The wait before the next start (0: at once).
    public private(set) var delay = 0.0
    /// Helpers that ended, or could not start, one after another without living `stableAfter`.
    public private(set) var quickEnds = 0

    public init() {}

    /// A helper ended after `lifetime` seconds: the wait before the next start.
    public mutating func ended(after lifetime: Double) -> Double {
        if lifetime >= Self.stableAfter {
            delay = 0
            quickEnds = 0
            return 0
        }
        return endedQuickly()
    }

    /// A helper could not be started at all: the wait before the next try.
    public mutating func failedToStart() -> Double {
        endedQuickly()
    }

    private mutating func endedQuickly() -> Double {
        quickEnds += 1
        delay = delay == 0 ? Self.initialDelay : min(delay * 2, Self.maximumDelay)
        return delay
    }
}
