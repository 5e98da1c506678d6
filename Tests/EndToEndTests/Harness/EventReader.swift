import Foundation
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import TestSupport

/// A subscriber as an app writes one: the client library on the real socket.
///
/// Sendable so that a wait for its next event can run on a thread of its own (`onThread`): a test
/// reads it from one thread at a time, the one it hands the wait to while it awaits.
final class EventReader: @unchecked Sendable {
    let connection: PhotoLibConnection
    let subscribed: SubscribeResult

    convenience init(_ daemon: RunningDaemon, app: String?, since: Int64? = nil) throws {
        try self.init(socketPath: daemon.library.socket, app: app, since: since)
    }

    /// A subscriber on another socket: an app's endpoint.
    init(socketPath: String, app: String?, since: Int64? = nil) throws {
        connection = try PhotoLibConnection(socketPath: socketPath, receiveTimeout: 60)
        subscribed = try connection.subscribe(app: app, since: since)
    }

    /// The next event (fails after 60 s without one), awaited on a thread of its own: the read blocks.
    func next() async throws -> ReceivedEvent {
        try await onThread { [self] in try connection.nextEvent() }.value
    }

    /// The next event and when it was read (seconds since 1970), the time taken on the reading thread
    /// as the line came: not when the awaiting task next got one of the pool's two threads, which
    /// under `make test`'s load came seconds later.
    func nextWithArrival() async throws -> (event: ReceivedEvent, at: Double) {
        try await onThread { [self] in
            let event = try connection.nextEvent()
            return (event, Date().timeIntervalSince1970)
        }.value
    }

    /// The next change event, skipping authorization and selection events.
    func nextChange() async throws -> ChangeEvent {
        while true {
            let event = try await next()
            if event.head.event == "change" { return try event.decode(ChangeEvent.self) }
        }
    }
}
