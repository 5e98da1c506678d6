import NIOCore
import PhotoLibCore
import Synchronization

/// The connections accepted and not yet served, handed from the event loops to the server's task, and
/// the connections being served, to close at the stop.
///
/// An async channel must be closed through `executeThenClose`, or its end stops the process (a
/// precondition of swift-nio's). swift-nio's own async accept loop drops the connections it buffered
/// when it ends (swift-nio issues 2813, 3481), so the accept side here is the classic one, and each
/// connection is wrapped only once it is certain to reach a task: `arrive` refuses after `stop`, under
/// the same lock, and the stream delivers everything yielded before it finished.
final class ConnectionArrivals: Sendable {
    typealias Arrival = (connection: AcceptedConnection, listener: PeerAdmission.Listener)

    let stream: AsyncStream<Arrival>
    private let state: Mutex<State>

    private struct State {
        var continuation: AsyncStream<Arrival>.Continuation
        var serving: [ObjectIdentifier: any Channel] = [:]
        var stopped = false
    }

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Arrival.self)
        self.stream = stream
        state = Mutex(State(continuation: continuation))
    }

    /// On the channel's event loop, as it is set up: wraps it with `make` and hands it to the server's task;
    /// after the stop, closes it instead.
    func arrive(_ channel: any Channel, through listener: PeerAdmission.Listener, _ make: () throws -> AcceptedConnection) throws {
        try state.withLock { state in
            guard !state.stopped else {
                channel.close(promise: nil)
                return
            }
            state.continuation.yield((try make(), listener))
        }
    }

    /// Notes a connection as being served, so the stop closes it; false once stopped (then close it yourself).
    func serving(_ channel: any Channel) -> Bool {
        state.withLock { state in
            if !state.stopped { state.serving[ObjectIdentifier(channel)] = channel }
            return !state.stopped
        }
    }

    func served(_ channel: any Channel) {
        _ = state.withLock { $0.serving.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// No more arrivals: the stream ends after those already in it; every connection being served is closed.
    func stop() {
        let open = state.withLock { state in
            state.stopped = true
            state.continuation.finish()
            return Array(state.serving.values)
        }
        for channel in open { channel.close(promise: nil) }
    }
}
