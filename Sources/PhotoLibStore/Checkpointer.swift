import Dispatch
import GRDB
import PhotoLibCore

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
///
/// A round that fails is tried again a second later, and the log only grows
/// meanwhile: so the first failure of a spell is told (`CheckpointReport`), and
/// its end, but not every round between.
final class Checkpointer: @unchecked Sendable {
    // @unchecked: the timer is set once in init; a dispatch source may be cancelled
    // from any thread; `lastFrames` and `spell` are touched only on the timer's serial queue.
    private let connection: DatabaseQueue
    private let timer: any DispatchSourceTimer
    private var lastFrames: Int = -1
    private var spell = FailureSpell()

    /// - Parameters:
    ///   - truncate: runs `PRAGMA wal_checkpoint(TRUNCATE)` on the writer's connection.
    ///   - passive: one PASSIVE round (the frames in the log, whether all were copied); this connection's by default.
    ///   - report: told when rounds start failing and when they work again.
    init(path: String, interval: DispatchTimeInterval = .seconds(1), truncate: @escaping @Sendable () throws -> Void,
         passive: (@Sendable () throws -> (frames: Int, complete: Bool))? = nil, report: @escaping @Sendable (CheckpointReport) -> Void) throws {
        var configuration = Configuration()
        configuration.label = "photolibd checkpointer"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        self.connection = connection
        let round = passive ?? { try Self.passiveRound(connection) }
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "photolibd checkpointer", qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            do {
                let found = try round()
                defer { self.lastFrames = found.frames }
                // Readers still on the log fail a truncation: the next idle round tries again.
                if found.complete, found.frames > 0, found.frames == self.lastFrames { try truncate() }
                if let rounds = self.spell.succeeded() { report(.recovered(failedRounds: rounds)) }
            } catch {
                if self.spell.failed() { report(.failing("\(error)")) }
            }
        }
        timer.resume()
    }

    /// One PASSIVE checkpoint: the frames in the log, and whether all were copied.
    private static func passiveRound(_ connection: DatabaseQueue) throws -> (frames: Int, complete: Bool) {
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

/// What the checkpointer tells the daemon's log: a spell of failed rounds starting, and ending.
public enum CheckpointReport: Sendable, Equatable {
    /// A round failed after rounds that worked (or the first round did); the log grows until one works.
    case failing(String)
    /// A round worked after this many failed.
    case recovered(failedRounds: Int)
}
