import Synchronization

/// What the idle rule (`RequestBacklog.closesWhenIdle`) needs to know of a
/// connection, shared by its event loop (which frames lines and meets the idle
/// timeout) and the task that answers its requests.
final class ConnectionActivity: Sendable {
    /// The requests framed and not yet answered.
    let backlog: RequestBacklog
    /// Whether the admitted connection listens (subscribed, or waiting for the person); nil before admission.
    private let listens = Mutex<(@Sendable () -> Bool)?>(nil)

    init(lineLimit: Int) {
        backlog = RequestBacklog(lineLimit: lineLimit)
    }

    /// The connection was admitted; `listening` tells from now on whether it listens.
    func admitted(listening: @escaping @Sendable () -> Bool) {
        listens.withLock { $0 = listening }
    }

    /// Whether the connection is waiting for something of the daemon's, however long it stays silent.
    var isListening: Bool {
        backlog.hasRequestsInFlight || (listens.withLock { $0 }?() ?? false)
    }
}
