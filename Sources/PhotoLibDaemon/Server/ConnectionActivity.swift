import Synchronization

/// What the idle rule (`RequestBacklog.closesWhenIdle`) needs to know of a
/// connection, shared by its event loop (which frames lines and meets the idle
/// timeout) and the task that answers its requests.
final class ConnectionActivity: Sendable {
    /// The requests framed and not yet answered.
    let backlog: RequestBacklog
    /// Whether the admitted connection listens (subscribed, or waiting for the person); nil before admission.
    private let listens = Mutex<(@Sendable () -> Bool)?>(nil)
    /// Whether the daemon has greeted the peer: before, the peer waits for the daemon, not the other way.
    private let greetedPeer = Atomic<Bool>(false)

    init(lineLimit: Int) {
        backlog = RequestBacklog(lineLimit: lineLimit)
    }

    /// The connection was admitted; `listening` tells from now on whether it listens.
    func admitted(listening: @escaping @Sendable () -> Bool) {
        listens.withLock { $0 = listening }
    }

    /// The greeting is written: from now on a silent peer is an idle one.
    func greeted() {
        greetedPeer.store(true, ordering: .releasing)
    }

    /// Whether the connection is waiting for something of the daemon's, however long it stays silent: its
    /// greeting (a client reads it before it writes; a daemon slow to admit it, under load, is not the
    /// peer being idle), an answer, events, or the person.
    var isListening: Bool {
        !greetedPeer.load(ordering: .acquiring) || backlog.hasRequestsInFlight || (listens.withLock { $0 }?() ?? false)
    }
}
