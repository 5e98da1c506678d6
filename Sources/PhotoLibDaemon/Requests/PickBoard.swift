import PhotoLibProtocol
import PhotoLibSystem
import Synchronization

/// The connections waiting for a pick, by request number: one each.
///
/// A pick is answered over the connection that asked (its files go as
/// descriptors over that very socket), so unlike other requests it lives
/// only as long as that connection: when it closes, the pick is withdrawn,
/// and after a restart none is left (`Engine.dropStalePicks`).
final class PickBoard: Sendable {
    struct Waiter: Sendable {
        let connection: ObjectIdentifier
        /// The peer's uid: an app on the owner's uid gets private copies (`PickPolicy.sharesOriginal`).
        let peerUID: UInt32
        /// False once the connection has closed.
        let isOpen: @Sendable () -> Bool
        /// Sends the reply line, with the descriptors (taken over: closed once
        /// sent); returns when the socket has taken them, throws when it cannot.
        let deliver: @Sendable (PickResult, [FileDescriptor]) async throws -> Void
    }

    private let waiters = Mutex<[Int64: Waiter]>([:])

    func register(_ request: Int64, _ waiter: Waiter) {
        waiters.withLock { $0[request] = waiter }
    }

    /// Takes the waiter of a request, so no one else answers it meanwhile.
    func claim(_ request: Int64) -> Waiter? {
        waiters.withLock { $0.removeValue(forKey: request) }
    }

    /// A connection closed: its picks, which the caller withdraws.
    func forget(connection: ObjectIdentifier) -> [Int64] {
        waiters.withLock { all in
            let gone = all.filter { $0.value.connection == connection }.map(\.key)
            for request in gone { all[request] = nil }
            return gone
        }
    }

    func isWaiting(_ connection: ObjectIdentifier) -> Bool {
        waiters.withLock { $0.values.contains { $0.connection == connection } }
    }

    func isWaiting(for request: Int64) -> Bool {
        waiters.withLock { $0[request] != nil }
    }
}
