import NIOCore
import PhotoLibCore
import Synchronization

/// Every admitted connection, so that an identity change reaches the ones already open.
///
/// A role is decided once, at accept time, from the peer's uid. When an app is
/// removed (and so when it is registered again under another uid), the
/// connections that hold a role naming it must not keep it: they are closed at
/// once, and a client that connects again gets the role its uid has now (SPEC §4).
final class ConnectionRegistry: Sendable {
    private let open = Mutex<[ObjectIdentifier: Connection]>([:])

    func add(_ connection: Connection) {
        open.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    func remove(_ connection: Connection) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Closes every connection whose role names `app`; returns how many.
    @discardableResult
    func closeConnections(of app: AppID) -> Int {
        let affected = open.withLock { open in open.values.filter { $0.role.names(app) } }
        for connection in affected { connection.channel.close(promise: nil) }
        return affected.count
    }
}

extension PeerRole {
    /// Whether this role was granted because of `app` (and so ends with it).
    func names(_ app: AppID) -> Bool {
        if case .app(let apps) = self { return apps.contains(app) }
        return false
    }
}
