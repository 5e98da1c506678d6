import Logging
import PhotoLibCore
import PhotoLibSystem

// Verification rounds: what inotify cannot follow (a library on a network or FUSE filesystem,
// directories past the watch limit) looked at again now and then, on the library's thread.
extension Engine {
    /// What of the library rounds cover now: all of it on a remote filesystem, else the directories
    /// the watcher could not watch.
    var roundCoverage: RoundCoverage {
        let remote = setting.libraryFilesystem.flatMap { $0.isRemote ? $0.name : nil }
        return RoundCoverage(remoteFilesystem: remote, unwatched: board.snapshot.unwatched)
    }

    /// One round: each covered directory looked at on the library's thread, a piece at a time (a
    /// batch's probe waits for one piece at most), what changed handed to the engine's queue as watch
    /// events. True when it found something. The engine answers other changes throughout.
    func verifyRound(interval milliseconds: Int64) async -> Bool {
        let coverage = roundCoverage
        guard !coverage.isEmpty, lifecycle.libraryAvailable, board.snapshot.phase == .ready else {
            if coverage.isEmpty { board.update { $0.rounds = nil } }
            return false
        }
        let albums = coverage.albums(in: index.albums)
        let started = ContinuousClock.now
        var events: [WatchEvent] = []
        var stamps: [RelativePath: DirectoryStamp] = [:]
        var files = 0
        var failure: String?
        var (rootFailure, answered, serverAway): (FileSystemFailure?, Int, FileSystemFailure?) = (nil, 0, nil)
        // A directory that could not be read, or holds what could not, is listed again whatever its stamp:
        // only a listing that works says it can be read again (a server back, a mode restored).
        let unreadable = Set(index.unreadable.keys.flatMap { [$0, $0.parent ?? .root] })
        let known = roundStamps.filter { !unreadable.contains($0.key) }
        let (looker, store, uid) = (setting.libraryLooker, store, ownerUID)
        for start in stride(from: 0, to: albums.count, by: RoundLook.pieceSize) {
            let piece = RoundLook(albums: Array(albums[start..<min(start + RoundLook.pieceSize, albums.count)]),
                                  stamps: known, daemonUID: uid, listsBeforeStats: coverage.remoteFilesystem != nil)
            let root: FileDescriptor
            do {
                root = try Directory.duplicate(index.access.root)
            } catch {
                failure = "cannot hand the library to its thread: \(error)"
                break
            }
            let found = await libraryLane.run { Result { try piece.look(root: root, looker: looker, store: store) } }
            switch found {
            case .success(let found):
                events += found.events
                stamps.merge(found.stamps) { _, new in new }
                files += found.files
                rootFailure = rootFailure ?? found.root
                answered += found.answered
                serverAway = serverAway ?? found.serverAway
            case .failure(let error):
                failure = "\(error)"
            }
            if lifecycle.stopped { return false }
        }
        // Stamps of directories no round covers any more (renamed, removed, watched again) are let go.
        roundStamps = stamps
        let took = ContinuousClock.now - started
        let summary = RoundsSummary(reason: coverage.description, directories: albums.count, files: files,
                                    intervalSeconds: Int(milliseconds / 1000), lastRoundAt: clock.now(),
                                    lastRoundMilliseconds: Int(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000),
                                    lastFailure: failure)
        board.update { $0.rounds = summary }
        if failure == nil { noteRoundReach(root: rootFailure, answered: answered, serverAway: serverAway) }
        if let failure { logger.warning("A verification round failed: \(failure). The next round tries again.") }
        logger.debug("A verification round over \(albums.count) directories and \(files) files found \(events.count) changes in \(took).")
        for event in events { queue.push(event) }
        return !events.isEmpty
    }
}
