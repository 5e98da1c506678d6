import Dispatch
import GRDB

/// Copies the write-ahead log back into the database file from a connection
/// and a thread of its own, once a second.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its
/// threshold, so about one batch in a hundred paid for copying the log and
/// syncing the file (some 16 ms here): the slow tail of every event's latency.
/// With the writer's automatic checkpoint off and this one on its own, the
/// engine never waits for one. A PASSIVE checkpoint takes no writer lock: it
/// copies what no reader still needs and lets the rest wait for the next round.
final class Checkpointer: @unchecked Sendable {
    // @unchecked: the timer is set once in init; a dispatch source may be cancelled from any thread.
    private let connection: DatabaseQueue
    private let timer: any DispatchSourceTimer

    init(path: String, interval: DispatchTimeInterval = .seconds(1)) throws {
        var configuration = Configuration()
        configuration.label = "photolibd checkpointer"
        connection = try DatabaseQueue(path: path, configuration: configuration)
        let connection = self.connection
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "photolibd checkpointer", qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler {
            // A failed round (a busy file, say) is tried again in a second; the
            // log only grows meanwhile, and nothing is lost either way.
            do {
                try connection.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            } catch {
            }
        }
        timer.resume()
    }

    func stop() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
