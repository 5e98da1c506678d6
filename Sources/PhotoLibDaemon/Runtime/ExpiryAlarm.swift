import PhotoLibCore
import Synchronization

/// Wakes the engine's expiry pass when the next grant ends, or sooner when an
/// edit made a grant with an end (which may be the new next one).
public final class ExpiryAlarm: Sendable {
    private struct State {
        var waiting: CheckedContinuation<Void, Never>?
        /// A wake that came while no one waited: the next wait returns at once.
        var woken = false
    }

    private let state = Mutex(State())
    private let clock: any WallClock

    public init(clock: any WallClock) {
        self.clock = clock
    }

    public func wake() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiting = state.waiting else {
                state.woken = true
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.resume()
    }

    /// Returns at `endsAt` (seconds since the epoch, by the wall clock grants
    /// are given in), or at the next `wake`; with nil, only at a wake.
    public func wait(until endsAt: Int64?) async {
        let timer = endsAt.map { endsAt in
            Task { [self] in
                let milliseconds = max(0, endsAt * 1000 - clock.nowMilliseconds())
                do {
                    try await Task.sleep(for: .milliseconds(milliseconds))
                } catch {
                    return  // cancelled: a wake came first
                }
                wake()
            }
        }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.woken {
                    state.woken = false
                    return true
                }
                state.waiting = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer?.cancel()
    }
}
