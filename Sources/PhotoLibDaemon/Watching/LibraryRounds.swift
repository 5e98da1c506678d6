import PhotoLibCore
import PhotoLibSystem

/// The owner of verification rounds and of the library's reach (SPEC §2, a library inotify cannot
/// follow): what each covered directory looked like at the last round, and whether a network
/// library's server answers.
///
/// It plans a round (what it covers, in pieces one look of the library's thread makes each) and
/// takes its end (the stamps it saw, its summary for `status`, the server gone or back); the engine
/// sequences: it hands each piece to the library's thread, then the round's events to its queue,
/// and a change of reach to the views, the board and every subscriber. Nothing here makes a system
/// call, so it is tested without a library.
struct LibraryRounds {
    /// The library's filesystem, when `fstatfs` could name it: a remote one is covered whole, and only
    /// its server can stop answering.
    let filesystem: FilesystemKind?
    /// The uid the daemon runs as: a round tells the owner's unreadable files from others' (`RoundLook`).
    let daemonUID: UInt32
    /// What the last round saw of each directory it covered.
    private(set) var stamps: [RelativePath: DirectoryStamp] = [:]
    /// Whether a network library's server answers.
    private(set) var reach = LibraryReach()

    init(filesystem: FilesystemKind?, daemonUID: UInt32) {
        self.filesystem = filesystem
        self.daemonUID = daemonUID
    }

    /// Whether the library is on a network or FUSE filesystem, whose server may stop answering.
    var isRemote: Bool { filesystem?.isRemote == true }

    /// What rounds cover now: all of the library on a remote filesystem, else the directories the
    /// watcher could not watch.
    func coverage(unwatched: Set<RelativePath>) -> RoundCoverage {
        RoundCoverage(remoteFilesystem: isRemote ? filesystem?.name : nil, unwatched: unwatched)
    }

    /// A round's looks, `RoundLook.pieceSize` albums each, in the order of `albums`. A directory that
    /// could not be read, or holds what could not (`unreadable`), is listed again whatever its stamp:
    /// only a listing that works says it can be read again (a server back, a mode restored).
    func pieces(of albums: [(AlbumTree.ID, RelativePath)], coverage: RoundCoverage, unreadable: some Sequence<RelativePath>) -> [RoundLook] {
        let relisted = Set(unreadable.flatMap { [$0, $0.parent ?? .root] })
        let known = stamps.filter { !relisted.contains($0.key) }
        return stride(from: 0, to: albums.count, by: RoundLook.pieceSize).map { start in
            RoundLook(albums: Array(albums[start..<min(start + RoundLook.pieceSize, albums.count)]), stamps: known,
                      daemonUID: daemonUID, listsBeforeStats: coverage.remoteFilesystem != nil)
        }
    }

    /// A directory whose listing disagreed with its stats: the next round lists it again.
    mutating func forget(_ paths: some Sequence<RelativePath>) {
        for path in paths { stamps[path] = nil }
    }

    /// A round's end: its stamps kept in place of the last round's (those of directories no round covers
    /// any more, renamed, removed or watched again, let go), its summary for `status`, and whether the
    /// server's reach changed (only a remote library's, and only by a round that looked at everything).
    mutating func ended(_ tally: RoundTally, coverage: RoundCoverage, directories: Int, intervalMilliseconds: Int64,
                        at now: Int64, tookMilliseconds: Int) -> (summary: RoundsSummary, reach: LibraryReach.Transition?) {
        stamps = tally.found.stamps
        let summary = RoundsSummary(reason: coverage.description, directories: directories, files: tally.found.files,
                                    intervalSeconds: Int(intervalMilliseconds / 1000), lastRoundAt: now,
                                    lastRoundMilliseconds: tookMilliseconds, lastFailure: tally.failure)
        guard isRemote, tally.failure == nil else { return (summary, nil) }
        return (summary, reach.roundEnded(root: tally.found.root, answered: tally.found.answered, serverAway: tally.found.serverAway, at: now))
    }

    /// The library's thread has been in one call for `milliseconds` (nil: it is not in one): past
    /// `LibraryReach.heldLimitMilliseconds` a remote library's server is taken for away.
    mutating func held(forMilliseconds milliseconds: Int64?, at now: Int64) -> LibraryReach.Transition? {
        guard isRemote else { return nil }
        return reach.held(forMilliseconds: milliseconds, at: now)
    }
}

/// What a round's pieces found, added up as they come back from the library's thread, and why the
/// round could not look at everything, if so.
struct RoundTally {
    var found = RoundLook.Found()
    /// The last reason a piece could not be looked at.
    var failure: String?

    /// Adds one piece's findings.
    mutating func add(_ piece: RoundLook.Found) { found.add(piece) }
}
