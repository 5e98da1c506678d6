import Foundation
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// One piece of a verification round, made on the library's thread through descriptors of its own:
/// each directory's `statx`, and where its entries are as they were, each indexed file's. What it
/// finds is handed over as watch events (`RoundJudgement` decides which), which the engine applies as
/// any batch: probed, planned, committed and settled, with nothing here written.
struct RoundLook: Sendable {
    /// The albums this piece looks at, with their paths.
    let albums: [(AlbumTree.ID, RelativePath)]
    /// What earlier rounds saw of these directories.
    let stamps: [RelativePath: DirectoryStamp]
    let daemonUID: UInt32
    /// On a network filesystem, each directory whose files are statted is listed first: one listing
    /// brings the server's stats of all its entries into the filesystem's cache (sshfs's READDIR carries
    /// them), where a stat of each alone is a round trip to the server (4.9x find's time, measured).
    var listsBeforeStats = false

    /// The albums one piece looks at: small enough that a batch's probe waiting for the library's
    /// thread waits for one piece, not a whole round over a NAS.
    static let pieceSize = 64

    struct Found: Sendable {
        var events: [WatchEvent] = []
        var stamps: [RelativePath: DirectoryStamp] = [:]
        var files = 0
        /// What the look at the library's root failed with, if it failed.
        var root: FileSystemFailure?
        /// Looks the server answered (`LibraryReach`): found, gone, or refused for a reason of the file's own.
        var answered = 0
        /// The first failure that means the server is away, if any.
        var serverAway: FileSystemFailure?

        /// Adds another piece's findings to these (a round is looked at a piece at a time).
        mutating func add(_ piece: Found) {
            events += piece.events
            stamps.merge(piece.stamps) { _, new in new }
            files += piece.files
            root = root ?? piece.root
            answered += piece.answered
            serverAway = serverAway ?? piece.serverAway
        }

        /// Counts one look's answer for `LibraryReach`, and hands it on.
        mutating func counted(_ answer: Lookup<FileObservation>) -> Lookup<FileObservation> {
            if case .unreadable(let failure) = answer, failure.meansServerAway {
                if serverAway == nil { serverAway = failure }
            } else {
                answered += 1
            }
            return answer
        }
    }

    /// Looks, through a looker made from `root` (a duplicate it owns), reading the indexed files of
    /// each directory whose entries are as they were from `store`.
    func look(root: FileDescriptor, looker: LibraryLookerMaker, store: Store) throws -> Found {
        let looking = looker(root)
        var found = Found()
        // The root first: a server that is away shows there, whatever its cache still answers for the rest.
        if case .unreadable(let failure) = found.counted(looking.lookUp(.root)) { found.root = failure }
        var unchanged: [(AlbumTree.ID, RelativePath)] = []
        for (album, path) in albums {
            let answer = found.counted(looking.lookUp(path))
            let verdict = RoundJudgement.directory(recorded: stamps[path], found: answer)
            if case .found(let directory) = answer {
                found.stamps[path] = DirectoryStamp.recorded(recorded: stamps[path], found: directory.facts, lookedAt: Self.now(),
                                                             listed: verdict == .list)
            }
            switch verdict {
            case .gone: continue
            case .list: found.events.append(.directoryChanged(path))
            case .statFiles: unchanged.append((album, path))
            }
        }
        guard !unchanged.isEmpty else { return found }
        let indexed = try store.read { tx in try unchanged.map { try tx.indexedFiles(inAlbum: $0.0) } }
        for ((_, path), files) in zip(unchanged, indexed) {
            if listsBeforeStats, let directory = looking.directory(path) {
                // Only to fill the cache: what is there is told by each file's own stat below. A listing
                // that fails decides nothing about the files; it counts, as any look, for the server's reach.
                do {
                    _ = try Directory.listDirectories(directory)
                } catch {
                    _ = found.counted(.unreadable(error.failure))
                }
            }
            var changed: [WatchEvent] = []
            var listAgain = false
            for (name, known) in files where !name.isHidden {
                let file = path.appending(name)
                found.files += 1
                switch RoundJudgement.file(known: known, found: found.counted(looking.lookUp(file)), daemonUID: daemonUID) {
                case .unchanged: continue
                case .changed: changed.append(.attributesChanged(file))
                case .gone: listAgain = true
                }
            }
            if listAgain {
                // Its stamp was older than its entries: listed now, and again at the next round.
                found.events.append(.directoryChanged(path))
                found.stamps[path] = nil
            } else {
                found.events += changed
            }
        }
        return found
    }

    /// Nanoseconds since the epoch, on this machine's clock: when a directory was looked at.
    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000_000).rounded())
    }
}
