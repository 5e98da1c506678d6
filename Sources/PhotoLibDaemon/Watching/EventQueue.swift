public import PhotoLibCore
import Synchronization

/// Carries watch events from the watcher thread to the engine, in order, in batches.
///
/// The watcher must never block (the kernel queue would overflow), and the
/// daemon's memory must not grow without bound when the engine falls behind:
/// past `limit` queued events the queue is replaced by one `.overflow`, which
/// makes the engine rescan. Nothing is lost: the rescan finds it all.
public final class EventQueue: Sendable {
    private struct State {
        var events: [WatchEvent] = []
        var collapsed = false
    }

    private let state = Mutex(State())
    private let continuation: AsyncStream<Void>.Continuation
    /// Yields once whenever events are waiting.
    public let signals: AsyncStream<Void>
    public let limit: Int

    public init(limit: Int = 200_000) {
        self.limit = limit
        (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func push(_ event: WatchEvent) {
        state.withLock { state in
            if state.collapsed { return }
            if state.events.count >= limit {
                state.events = [.overflow]
                state.collapsed = true
                return
            }
            state.events.append(event)
        }
        continuation.yield()
    }

    /// Takes up to `maximum` events, oldest first.
    public func take(maximum: Int) -> [WatchEvent] {
        state.withLock { state in
            let count = min(maximum, state.events.count)
            let batch = Array(state.events.prefix(count))
            state.events.removeFirst(count)
            if state.events.isEmpty { state.collapsed = false }
            return batch
        }
    }

    /// Whether no event waits now.
    public var isEmpty: Bool { state.withLock { $0.events.isEmpty } }

    public func finish() { continuation.finish() }
}
