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

    init(_ daemon: RunningDaemon, app: String?, since: Int64? = nil) throws {
        connection = try PhotoLibConnection(socketPath: daemon.library.socket, receiveTimeout: 60)
        subscribed = try connection.subscribe(app: app, since: since)
    }

    /// The next event (fails after 60 s without one).
    func next() throws -> ReceivedEvent { try connection.nextEvent() }

    /// The next change event, skipping authorization and selection events.
    func nextChange() throws -> ChangeEvent {
        while true {
            let event = try next()
            if event.head.event == "change" { return try event.decode(ChangeEvent.self) }
        }
    }
}
