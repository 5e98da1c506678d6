import NIOCore
import PhotoLibCore
import Synchronization

/// The connections accepted and not yet served, handed from the event loops to the server's task, and
/// the connections being served, to close at the stop.
///
/// An async channel must be closed through `executeThenClose`, or its end stops the process (a
/// precondition of swift-nio's). swift-nio's own async accept loop drops the connections it buffered
/// when it ends (swift-nio issues 2813, 3481), and so would an `AsyncStream` of them whose reader is
/// cancelled; so the accept side here is the classic one, the connections wait in a list of this
/// type's, and the stream carries only the signal that some wait. Whatever waits when the server's
/// task ends, stopped or cancelled, is taken and closed as every connection is; one that arrives
/// after the stop is closed before it is wrapped, under the same lock.
final class ConnectionArrivals: Sendable {
    typealias Arrival = (connection: AcceptedConnection, listener: PeerAdmission.Listener)

    /// Yields when connections wait (`take` them); ends at `stop`.
    let signals: AsyncStream<Void>
    private let state: Mutex<State>

    private struct State {
        var signal: AsyncStream<Void>.Continuation
        var waiting: [Arrival] = []
        var serving: [ObjectIdentifier: any Channel] = [:]
        var stopped = false
    }

    init() {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.signals = signals
        state = Mutex(State(signal: signal))
    }

    /// On the channel's event loop, as it is set up: wraps it with `make` and hands it to the server's task;
    /// after the stop, closes it instead.
    func arrive(_ channel: any Channel, through listener: PeerAdmission.Listener, _ make: () throws -> AcceptedConnection) throws {
        try state.withLock { state in
            guard !state.stopped else {
                channel.close(promise: nil)
                return
            }
            state.waiting.append((try make(), listener))
            state.signal.yield()
        }
    }

    /// The connections waiting to be served.
    func take() -> [Arrival] {
        state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
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

    /// No more arrivals: the signals end, and every connection being served is closed. Those still waiting
    /// stay for `take`, which after the stop returns the last of them, to be closed through their async channels.
    func stop() {
        let open = state.withLock { state in
            state.stopped = true
            state.signal.finish()
            return Array(state.serving.values)
        }
        for channel in open { channel.close(promise: nil) }
    }
}
