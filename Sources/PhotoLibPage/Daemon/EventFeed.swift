import Foundation
import Logging
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol

/// The daemon's admin events, fanned out to every open page.
///
/// One admin subscription (every app) on a thread of its own; each event's
/// JSON line goes to every page listening on `/api/events`, so a request an
/// app makes shows at once, without a reload. A subscription that breaks (the
/// daemon restarted) is made again a second later; pages are told to reload
/// what they show (`{"event":"reload"}`), since events may have been missed.
/// After the first, pages read the pending requests again (`{"event":"requests"}`).
public final class EventFeed: @unchecked Sendable {
    // @unchecked: `listeners` is guarded by `lock`.
    private let socket: String
    private let logger: Logger
    private let lock = NSLock()
    private var listeners: [UUID: AsyncStream<String>.Continuation] = [:]
    private var started = false

    public init(socket: String, logger: Logger) {
        self.socket = socket
        self.logger = logger
    }

    /// A stream of event lines for one page (an empty line is a ping); it ends when the page goes.
    public func listen() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        lock.withLock {
            listeners[id] = continuation
            if !started {
                started = true
                Thread { [self] in follow() }.start()
            }
        }
        // A ping now and then: writing it is how the server notices a page that was closed, and a closed
        // page ends the picks it showed (ClosedPageWatch), so the app's dialog should not wait long for it.
        let pinger = Task {
            while true {
                do {
                    try await Task.sleep(for: .seconds(4))
                } catch {
                    return  // cancelled: the page went
                }
                continuation.yield("")
            }
        }
        continuation.onTermination = { [weak self] _ in
            pinger.cancel()
            self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    private func broadcast(_ line: String) {
        let targets = lock.withLock { Array(listeners.values) }
        for target in targets { target.yield(line) }
    }

    private func follow() {
        var broken = false
        while true {
            do {
                let connection = try PhotoLibConnection(socketPath: socket)
                _ = try connection.subscribe(app: nil, since: nil)
                // After a break, everything may have changed. The first time, only a request may have
                // been missed: a page that opened while this subscription was being made read the
                // pending requests before it, and one asked in between would never show its sheet.
                broadcast(broken ? #"{"event":"reload"}"# : #"{"event":"requests"}"#)
                broken = false
                while true {
                    let event = try connection.nextEvent()
                    broadcast(String(decoding: event.line, as: UTF8.self))
                }
            } catch {
                if !broken { logger.warning("The page lost the daemon's events (\(error)); trying again every second.") }
                broken = true
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }
}
