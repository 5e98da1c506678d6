import Foundation
public import PhotoLibCore
public import PhotoLibProtocol

/// One event as received: its common fields and the raw line, to decode as its kind.
public struct ReceivedEvent: Sendable {
    public let head: EventHead
    /// The event's JSON, without the newline.
    public let line: [UInt8]

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try MessageCoder().decode(type, from: line)
    }
}

extension PhotoLibConnection {
    /// Subscribes to one app's events (or, for an admin with `app == nil`, every app's),
    /// optionally resuming after `since`. Read the events with `nextEvent()` or `events()`.
    public func subscribe(app: String?, since: Int64?) throws(PhotoLibError) -> SubscribeResult {
        try call(.subscribe, SubscribeParams(app: app, since: since), returning: SubscribeResult.self)
    }

    /// Blocks until the next event arrives.
    public func nextEvent() throws(PhotoLibError) -> ReceivedEvent {
        while true {
            let line = earlyEvents.isEmpty ? try readLine() : earlyEvents.removeFirst()
            if let failure = try? MessageCoder().decode(ErrorReply.self, from: line) {
                throw .remote(code: failure.error.code, message: failure.error.message)
            }
            guard let head = try? MessageCoder().decode(EventHead.self, from: line) else { continue }  // a late reply
            return ReceivedEvent(head: head, line: line)
        }
    }

    /// The subscribed events as an `AsyncSequence`, read on a thread of its own.
    ///
    /// After calling this, use the connection for nothing else: the thread owns it.
    public func events() -> AsyncThrowingStream<ReceivedEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ReceivedEvent.self)
        let reader = UncheckedConnection(connection: self)
        let thread = Thread {
            do {
                while true { continuation.yield(try reader.connection.nextEvent()) }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "photolibd-client-events"
        thread.start()
        return stream
    }
}

/// Hands the connection to the reader thread; from then on only that thread uses it.
private struct UncheckedConnection: @unchecked Sendable {
    let connection: PhotoLibConnection
}
