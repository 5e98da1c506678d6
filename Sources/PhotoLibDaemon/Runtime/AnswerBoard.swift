import PhotoLibCore
import Synchronization

/// The connections waiting for the person's answer to a request, by request number.
///
/// A waiting reply is not held in a task: the waiter is a closure that writes
/// the reply line to its connection when the answer comes, so other requests
/// on that connection are answered meanwhile (clients match replies by `id`).
/// Nothing here is stored: after a restart the request is still pending (the
/// database keeps it) and an app that asks again waits for the same answer.
/// `Outcome` is what a waiter is handed: the protocol's reply, in the daemon.
public final class AnswerBoard<Outcome: Sendable>: Sendable {
    /// Waits one connection may have outstanding: each is a small closure, and
    /// a client has at most a few kinds of question to wait on.
    public static var perConnectionLimit: Int { 16 }

    public struct Waiter: Sendable {
        public let connection: ObjectIdentifier
        public let deliver: @Sendable (Outcome) -> Void

        public init(connection: ObjectIdentifier, deliver: @escaping @Sendable (Outcome) -> Void) {
            self.connection = connection
            self.deliver = deliver
        }
    }

    private let waiters = Mutex<[Int64: [Waiter]]>([:])

    public init() {}

    /// Registers a wait; the limit per connection keeps a client that asks in a
    /// loop from growing the daemon's memory.
    public func wait(for request: Int64, _ waiter: Waiter) throws(PhotoLibError) {
        let accepted = waiters.withLock { all -> Bool in
            let outstanding = all.values.reduce(0) { $0 + $1.count(where: { $0.connection == waiter.connection }) }
            guard outstanding < Self.perConnectionLimit else { return false }
            all[request, default: []].append(waiter)
            return true
        }
        if !accepted { throw .tooManyWaits(limit: Self.perConnectionLimit) }
    }

    /// Hands the outcome to everyone waiting for its request.
    public func resolve(_ request: Int64, with outcome: Outcome) {
        let waiting = waiters.withLock { $0.removeValue(forKey: request) } ?? []
        for waiter in waiting { waiter.deliver(outcome) }
    }

    /// A connection closed: its waits go with it.
    public func forget(connection: ObjectIdentifier) {
        waiters.withLock { all in
            for (request, list) in all {
                let kept = list.filter { $0.connection != connection }
                all[request] = kept.isEmpty ? nil : kept
            }
        }
    }

    /// Connections waiting for this request's answer.
    public func waiting(for request: Int64) -> Int {
        waiters.withLock { $0[request]?.count ?? 0 }
    }

    public func isWaiting(_ connection: ObjectIdentifier) -> Bool {
        waiters.withLock { $0.values.contains { $0.contains { $0.connection == connection } } }
    }
}
