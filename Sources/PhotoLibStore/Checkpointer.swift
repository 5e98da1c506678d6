import Dispatch
import GRDB

/// Copies the write-ahead log back into the database file from a connection
/// and a thread of its own, once a second, and gives its disk back when idle.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its
/// threshold, so about one batch in a hundred paid for copying the log and
/// syncing the file (some 16 ms here): the slow tail of every event's latency.
/// With the writer's automatic checkpoint off and this one on its own, the
/// engine never waits for one. A PASSIVE checkpoint takes no writer lock: it
/// copies what no reader still needs and lets the rest wait for the next round.
///
/// A checkpoint reuses the log file but never shrinks it, and SQLite cuts it
/// back to `journal_size_limit` only when a later commit restarts the log: after
/// a burst with no commit behind it (the end of a scan, a 100,000-file grant)
/// the file kept its peak (178 MiB after the benchmark). So once a round finds
/// the log wholly copied and no frame added since the round before (the engine
/// is idle), the log is truncated to nothing by `truncate`, which runs on the
/// writer's own connection: queued behind the engine's writes rather than
/// racing them for the lock (the engine's connection does not wait on a busy
/// lock, it fails). That is one truncation per idle spell, and the next commit
/// grows the file again from zero.
final class Checkpointer: @unchecked Sendable {
    // @unchecked: the timer is set once in init; a dispatch source may be cancelled
    // from any thread; `lastFrames` is touched only on the timer's serial queue.
    private let connection: DatabaseQueue
    private let timer: any DispatchSourceTimer
    private var lastFrames: Int = -1

    /// - Parameter truncate: runs `PRAGMA wal_checkpoint(TRUNCATE)` on the writer's connection.
    init(path: String, interval: DispatchTimeInterval = .seconds(1), truncate: @escaping @Sendable () throws -> Void) throws {
        var configuration = Configuration()
        configuration.label = "photolibd checkpointer"
        connection = try DatabaseQueue(path: path, configuration: configuration)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "photolibd checkpointer", qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            // A failed round (a busy file, say) is tried again in a second; the
            // log only grows meanwhile, and nothing is lost either way.
            guard let self, let round = try? self.passiveRound() else { return }
            defer { self.lastFrames = round.frames }
            guard round.complete, round.frames > 0, round.frames == self.lastFrames else { return }
            try? truncate()  // readers still on the log: the next idle round tries again
        }
        timer.resume()
    }

    /// One PASSIVE checkpoint: the frames in the log, and whether all were copied.
    private func passiveRound() throws -> (frames: Int, complete: Bool) {
        try connection.writeWithoutTransaction { db in
            guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") else { return (0, false) }
            let busy: Int = row[0], frames: Int = row[1], copied: Int = row[2]
            return (frames, busy == 0 && frames == copied)
        }
    }

    func stop() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
