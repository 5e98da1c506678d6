import Logging
import PhotoLibCore
import PhotoLibSystem

// Verification rounds: what inotify cannot follow (a library on a network or FUSE filesystem,
// directories past the watch limit) looked at again now and then, on the library's thread.
extension Engine {
    /// One round: each covered directory looked at on the library's thread, a piece at a time (a
    /// batch's probe waits for one piece at most), what changed handed to the engine's queue as watch
    /// events. True when it found something. The engine answers other changes throughout.
    func verifyRound(interval milliseconds: Int64) async -> Bool {
        let coverage = rounds.coverage(unwatched: board.snapshot.unwatched)
        guard !coverage.isEmpty, lifecycle.libraryAvailable, board.snapshot.phase == .ready else {
            if coverage.isEmpty { board.update { $0.rounds = nil } }
            return false
        }
        let albums = coverage.albums(in: index.albums)
        let started = ContinuousClock.now
        var tally = RoundTally()
        let (looker, store) = (libraryLooker, store)
        for piece in rounds.pieces(of: albums, coverage: coverage, unreadable: index.unreadable.keys) {
            let root: FileDescriptor
            do {
                root = try Directory.duplicate(index.access.root)
            } catch {
                tally.failure = "cannot hand the library to its thread: \(error)"
                break
            }
            switch await libraryLane.run({ Result { try piece.look(root: root, looker: looker, store: store) } }) {
            case .success(let found): tally.add(found)
            case .failure(let error): tally.failure = "\(error)"
            }
            if lifecycle.stopped { return false }
        }
        let took = ContinuousClock.now - started
        let tookMilliseconds = Int(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000)
        let (summary, reachChanged) = rounds.ended(tally, coverage: coverage, directories: albums.count, intervalMilliseconds: milliseconds,
                                                   at: clock.now(), tookMilliseconds: tookMilliseconds)
        board.update { $0.rounds = summary }
        note(reachChanged)
        if let failure = tally.failure { logger.warning("A verification round failed: \(failure). The next round tries again.") }
        logger.debug("A verification round over \(albums.count) directories and \(tally.found.files) files found \(tally.found.events.count) changes in \(took).")
        for event in tally.found.events { queue.push(event) }
        return !tally.found.events.isEmpty
    }
}
