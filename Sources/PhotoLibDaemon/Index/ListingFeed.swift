import PhotoLibCore
import Synchronization

/// The listings of a first scan's walk, handed from the walk's threads (`TreeListing`) to the
/// engine as they are made: the engine writes each part's rows while the walk goes on.
///
/// The walk never waits for the engine (listings pile up here while a part is written, and the
/// next part takes them all), and the engine awaits without holding a thread.
final class ListingFeed: Sendable {
    /// A directory's listing, and its plan against nothing known, made on the walk's thread (`IndexBatch.scanListed`).
    typealias Listed = (path: RelativePath, listing: Lookup<[DirectoryPlan.Entry]>, plan: DirectoryPlan)

    private struct State {
        var arrived: [Listed] = []
        var over = false
        var waiter: CheckedContinuation<Void, Never>?

        /// The engine's wait, ended once (its continuation resumed outside the lock).
        mutating func take() -> CheckedContinuation<Void, Never>? {
            defer { waiter = nil }
            return waiter
        }
    }

    private let state = Mutex(State())

    /// A listing made (called by the walk, in the order `TreeListing` promises).
    func deliver(_ listed: Listed) {
        let waiter = state.withLock { state in
            state.arrived.append(listed)
            return state.take()
        }
        waiter?.resume()
    }

    /// The walk is over: no listing follows.
    func finish() {
        let waiter = state.withLock { state in
            state.over = true
            return state.take()
        }
        waiter?.resume()
    }

    /// Every listing made since the last call, in the order made; waits while there is none. Nil
    /// once the walk is over and everything it made was taken.
    func next() async -> [Listed]? {
        while true {
            let taken: [Listed]?? = state.withLock { state in
                if !state.arrived.isEmpty {
                    defer { state.arrived = [] }
                    return .some(state.arrived)
                }
                return state.over ? .some(nil) : nil
            }
            if let taken { return taken }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    guard state.arrived.isEmpty, !state.over else { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}
