import PhotoLibCore
import PhotoLibProtocol

/// What `ConnectionHandler` asks of the daemon for one connection: who the peer
/// is, what it is told, and what becomes of its requests. `RequestRouter` is the
/// daemon's; a test serves a connection with a fake of its own.
protocol ConnectionServing: Sendable {
    /// Where a connection's subscription is installed.
    var hub: SubscriptionHub { get }

    /// The peer's role from the socket it came through, its uid and its sandbox; a failure refuses it.
    func role(listener: PeerAdmission.Listener, uid: UInt32, sandbox: SandboxIdentity) -> Result<PeerRole, PhotoLibError>

    /// The first line a peer admitted in `role` is sent.
    func greeting(for role: PeerRole) -> [UInt8]

    /// An error reply line.
    func errorLine(_ error: PhotoLibError, id: RequestID?) -> [UInt8]

    /// The reply line to one request, or nil when the reply was already sent or comes later
    /// (a subscribe, in order with its events; an answer the person gives later; a pick).
    func handle(_ line: [UInt8], connection: Connection) async -> [UInt8]?

    /// A connection was admitted.
    func opened(_ connection: Connection)

    /// A connection's channel closed: whatever waits to write to it is forgotten, at once.
    func closed(_ connection: Connection)

    /// A connection's task is over (its channel closed, no request of its is being answered):
    /// what it asked for that is still under way is withdrawn (a pick nobody can receive).
    func left(_ connection: Connection) async

    /// Whether the connection waits for the person's answer or a pick (and so listens, however long it is silent).
    func awaitsPerson(_ connection: Connection) -> Bool
}
