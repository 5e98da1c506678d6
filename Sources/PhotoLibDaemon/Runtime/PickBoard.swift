import PhotoLibCore
import Synchronization

/// A waiter that lives as long as one connection.
public protocol ConnectionBound: Sendable {
    var connection: ObjectIdentifier { get }
}

/// The connections waiting for a pick, by request number: one each.
///
/// A pick is answered over the connection that asked (its files go as
/// descriptors over that very socket), so unlike other requests it lives
/// only as long as that connection: when it closes, the pick is withdrawn,
/// and after a restart none is left (`Engine.dropStalePicks`).
public final class PickBoard<Waiter: ConnectionBound>: Sendable {
    private let waiters = Mutex<[Int64: Waiter]>([:])

    public init() {}

    public func register(_ request: Int64, _ waiter: Waiter) {
        waiters.withLock { $0[request] = waiter }
    }

    /// Takes the waiter of a request, so no one else answers it meanwhile.
    public func claim(_ request: Int64) -> Waiter? {
        waiters.withLock { $0.removeValue(forKey: request) }
    }

    /// A connection closed: its picks, which the caller withdraws.
    public func forget(connection: ObjectIdentifier) -> [Int64] {
        waiters.withLock { all in
            let gone = all.filter { $0.value.connection == connection }.map(\.key)
            for request in gone { all[request] = nil }
            return gone
        }
    }

    public func isWaiting(_ connection: ObjectIdentifier) -> Bool {
        waiters.withLock { $0.values.contains { $0.connection == connection } }
    }

    public func isWaiting(for request: Int64) -> Bool {
        waiters.withLock { $0[request] != nil }
    }
}
