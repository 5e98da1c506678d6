import CSystemShims
import Glibc
import Synchronization

/// Many listening Unix sockets served by one thread, which accepts and hands
/// each connection on with the key of the socket it came through.
///
/// For the apps' endpoints: a thousand apps mean a thousand listening
/// sockets, and each costs here one descriptor and a few bytes, where an
/// event-loop server channel apiece cost about 3.7 KB. The thread sleeps in
/// `poll` until a connection or a change of the set arrives.
public final class ListeningSockets<Key: Hashable & Sendable>: Sendable {
    private struct State {
        var listeners: [Key: Int32] = [:]
        /// Closed by the polling thread, so a number is never reused under its poll.
        var closing: [Int32] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let wakeup: Wakeup
    private let accepted: @Sendable (Key, Int32) -> Void

    /// - Parameter accepted: called on the polling thread with each accepted
    ///   connection (non-blocking, close-on-exec), which it then owns.
    public init(accepted: @escaping @Sendable (Key, Int32) -> Void) throws(SystemCallError) {
        wakeup = try Wakeup()
        self.accepted = accepted
        try DetachedThread.start { [self] in run() }
    }

    /// Binds and listens at `path` for `key` (replacing a socket it had under that key).
    public func add(_ key: Key, path: String, backlog: Int32 = 64) throws(SystemCallError) {
        let fd = try systemCall("bind") { photolibd_unix_listen(path, backlog) }
        do throws(SystemCallError) {
            try makeNonBlocking(fd)
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        state.withLock { state in
            if let old = state.listeners.updateValue(fd, forKey: key) { state.closing.append(old) }
        }
        wakeup.signal()
    }

    /// Listens on an already listening socket for `key` (one systemd passed);
    /// from now on this set owns the descriptor.
    public func adopt(_ key: Key, descriptor fd: Int32) throws(SystemCallError) {
        try makeNonBlocking(fd)
        state.withLock { state in
            if let old = state.listeners.updateValue(fd, forKey: key) { state.closing.append(old) }
        }
        wakeup.signal()
    }

    /// Stops listening for `key` (the file stays: the caller removes it).
    public func remove(_ key: Key) {
        state.withLock { state in
            if let old = state.listeners.removeValue(forKey: key) { state.closing.append(old) }
        }
        wakeup.signal()
    }

    /// Stops the thread and closes every listening socket.
    public func stop() {
        state.withLock { state in
            state.closing += state.listeners.values
            state.listeners = [:]
            state.stopped = true
        }
        wakeup.signal()
    }

    private func run() {
        while true {
            let (listeners, closing, stopped) = state.withLock { state in
                defer { state.closing = [] }
                return (state.listeners, state.closing, state.stopped)
            }
            for fd in closing { _ = close(fd) }
            if stopped { return }
            let keys = Array(listeners.keys)
            var polled = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            polled += keys.map { pollfd(fd: listeners[$0]!, events: Int16(POLLIN), revents: 0) }
            let ready: Int32
            do {
                ready = try systemCall("poll") { poll(&polled, nfds_t(polled.count), -1) }
            } catch {
                continue  // only EINTR-like transients reach here; the set is polled again
            }
            guard ready > 0 else { continue }
            if polled[0].revents != 0 { wakeup.drain() }
            for (index, key) in keys.enumerated() where polled[index + 1].revents & Int16(POLLIN) != 0 {
                while true {
                    let connection = photolibd_accept(polled[index + 1].fd)
                    if connection >= 0 {
                        accepted(key, connection)
                        continue
                    }
                    let code = errno
                    if code == EINTR || code == ECONNABORTED { continue }  // the peer left first
                    // EAGAIN: all taken. Out of descriptors: wait a little, or the
                    // still-readable socket would spin this loop.
                    if code != EAGAIN && code != EWOULDBLOCK { usleep(100_000) }
                    break
                }
            }
        }
    }
}


/// Accepting must never block the one thread that serves every listener.
private func makeNonBlocking(_ fd: Int32) throws(SystemCallError) {
    let flags = try systemCall("fcntl F_GETFL") { fcntl(fd, F_GETFL) }
    _ = try systemCall("fcntl F_SETFL") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
}
