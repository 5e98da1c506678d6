/// One batch of watch events, or one full scan, made into the index's edits: what each event and
/// each listing means is decided here (by `IndexStep`, `FileRefresh`, `RenameOutcome`,
/// `DirectoryPlan`, `FileIdentity`, `LivePairing`) on what the batch's probe looked at and the
/// rows it reads, and written through `IndexRows`, in the one transaction the daemon opens for it.
///
/// It never looks at the disk, and could not: the core makes no system call. A fact the batch
/// needs and its probe did not look at is the probe's miss, never a look made here under the
/// write lock: the event it came with changes nothing, and the batch asks for a full scan
/// (`Outcome.unprobed`), which looks at everything again.
///
/// Identity rules (SPEC §2): an asset keeps its ID when renamed or moved (paired rename events),
/// when its album is renamed or moved (one album row changes), and when a file is renamed over it
/// (an atomic save: the ID stays, the content counts as changed). An asset is an ID and its member
/// files: one file, or the image and video of a Live Photo; after each batch or scan, the stems it
/// touched are paired again.
public struct IndexBatch<Rows: IndexRows> {
    /// What the batch asks of the daemon beyond its edits.
    public struct Outcome: Sendable, Equatable {
        public var needsFullScan = false
        /// The kernel dropped events: what happened meanwhile is unknown.
        public var overflowed = false
        public var rootGone = false
        public var failedWatches: [RelativePath] = []
        /// Albums were moved, removed or listed again: descriptors kept for their old places are stale.
        public var albumsRearranged = false
        /// Paths the batch needed and its probe had not looked at (the full scan asked for looks at them).
        public var unprobed: [RelativePath] = []
        /// Directories listed again whose listing disagreed with the stats of what it lacked or named:
        /// nothing changed there; the next round lists them again.
        public var unsettled: [RelativePath] = []

        public init() {}
    }

    public internal(set) var rows: Rows
    /// The album tree as the batch leaves it (the daemon keeps it once the transaction commits).
    public internal(set) var albums: AlbumTree
    /// Library paths that could not be read at this look, and why: their rows are kept as they were.
    public internal(set) var unreadable: [RelativePath: FileSystemFailure]
    public internal(set) var outcome = Outcome()

    let probe: LibraryProbe
    let policy: AssetNamePolicy
    /// The uid photolibd runs as: files it does not own are refused (`LinkRefusal`).
    let daemonUID: UInt32
    let recorder: ChangeRecorder
    /// Called between directories of a long scan: throws (and so rolls the transaction back) when the daemon stops.
    let checkpoint: () throws -> Void
    /// Stems whose files changed in the batch, by album: paired again at its end.
    var touchedStems: [AlbumTree.ID: Set<[UInt8]>] = [:]
    /// Albums whose every file is paired again at the end of the batch (scanned ones).
    var touchedAlbums: Set<AlbumTree.ID> = []
    /// Albums a directory's listing changed (a file new, changed as apps see it, or gone; a
    /// sub-album new or gone): after a start's scan, the view directories that must be read
    /// whatever their stamps say (`ViewTrust`).
    public internal(set) var changedAlbums: Set<AlbumTree.ID> = []
    /// Directories a full scan left as they were, their listing being what their rows were at the last clean stop (`AlbumDigests`).
    public internal(set) var unchangedListings = 0
    /// New files the batch found, stored many to a statement before anything reads the index again.
    var arrivals = PendingArrivals()
    /// Whether the library's inode numbers name its files (not on sshfs or SMB, which make them up):
    /// how a file gone from one place is known again in another (`FileIdentity`).
    let trustsInodes: Bool
    /// Files gone from directories listed again, held (parked under hidden names) until the batch's
    /// end: a file renamed on a server is gone from one listing and new in another.
    var held = HeldVanished()

    public init(rows: Rows, albums: AlbumTree, unreadable: [RelativePath: FileSystemFailure], probe: LibraryProbe,
                policy: AssetNamePolicy, daemonUID: UInt32, recorder: ChangeRecorder, trustsInodes: Bool = true,
                checkpoint: @escaping () throws -> Void = {}) {
        self.rows = rows
        self.albums = albums
        self.unreadable = unreadable
        self.probe = probe
        self.policy = policy
        self.daemonUID = daemonUID
        self.recorder = recorder
        self.trustsInodes = trustsInodes
        self.checkpoint = checkpoint
    }

    /// Applies a batch of watch events, in order; then stores what arrived and pairs the stems touched.
    public mutating func apply(_ events: [WatchEvent]) throws {
        if events.contains(where: { if case .directoryChanged = $0 { true } else { false } }) {
            held.watermark = try rows.maxMemberRowID()  // before anything is inserted: what is above it arrived in this batch
        }
        for event in events {
            let step = IndexStep.of(event)
            if arrivals.mustStore(before: step) { try storeArrivals() }
            do {
                try carryOut(step)
            } catch let missed as Unprobed {
                // Nothing of this event was written (every look comes before its writes): a full scan sees to it.
                outcome.unprobed.append(missed.path)
                outcome.needsFullScan = true
            }
        }
        try storeArrivals()
        try settleVanished()
        try pairTouched()
    }

    private mutating func carryOut(_ step: IndexStep) throws {
        switch step {
        case .refreshFile(let path, let admission):
            try refreshFile(path, admission: admission)
        case .rescanSubtree(let path):
            // Readable again (or no longer): the whole subtree is looked at anew (the probe listed it afresh).
            outcome.albumsRearranged = true
            let wasUnreadable = unreadable.keys.contains(where: { $0.isWithin(path) })
            if albums.album(at: path) != nil || wasUnreadable {
                try scanNewDirectory(path)
            }
            if wasUnreadable, !unreadable.keys.contains(where: { $0.isWithin(path) }), let album = albums.album(at: path) {
                // Links that could not be made while it was unreadable (a selection edited meanwhile)
                // are made now: each asset below is offered to the views again, unchanged.
                for record in try rows.assets(inAlbums: albums.subtree(of: album)) {
                    recorder.record(.asset(old: locate(record), new: locate(record)))
                }
            }
        case .moveFile(let from, let to):
            try moveFile(from: from, to: to)
        case .moveAlbum(let from, let to):
            try moveAlbum(from: from, to: to)
        case .scanNewDirectory(let path):
            try scanNewDirectory(path)
        case .relistDirectory(let path):
            try relistDirectory(path)
        case .removeAlbum(let path):
            try removeAlbum(path)
        case .removeFile(let path):
            try removeFile(path)
        case .fullScan(let overflowed):
            outcome.needsFullScan = true
            if overflowed { outcome.overflowed = true }
        case .rootGone:
            outcome.rootGone = true
        case .watchFailed(let path):
            outcome.failedWatches.append(path)
        }
    }

    /// A library entry as the batch's probe found it.
    func lookUp(_ path: RelativePath) throws(Unprobed) -> Lookup<FileObservation> {
        guard let found = probe.lookups[path] else { throw Unprobed(path: path) }
        return found
    }

    // MARK: What the batch knows

    /// Where an asset and its members are now, in the batch's album tree.
    func locate(_ record: AssetRecord) -> LocatedAsset? {
        LocatedAsset(record, in: albums)
    }

    /// The asset as it stands in the rows now, when changes are being recorded.
    func snapshot(_ asset: Int64) throws -> LocatedAsset? {
        guard recorder.isRecording else { return nil }
        return try rows.asset(rowID: asset).flatMap(locate)
    }

    mutating func touch(_ album: AlbumTree.ID, _ name: FileName) {
        touchedStems[album, default: []].insert(name.stem)
    }

    /// Forgets that a path could not be read. Checked first: every file event comes here.
    mutating func markReadable(_ path: RelativePath) {
        if unreadable[path] != nil { unreadable[path] = nil }
    }

    mutating func forgetUnreadable(within path: RelativePath) {
        guard !unreadable.isEmpty else { return }
        unreadable = unreadable.filter { !$0.key.isWithin(path) }
    }

    /// Notes when a new or changed member was taken, as the probe read it (while rule grants exist),
    /// before the change is recorded. One the probe did not read stays unknown: the engine looks at
    /// every file without a capture time when a rule is made, and this one again at its next change.
    mutating func noteCaptureTime(_ member: inout MemberRecord, contentChanged: Bool = true) throws {
        // Most batches read no capture time (no rule grant): no path is made to look one up.
        guard !probe.takenAt.isEmpty, contentChanged || member.takenAt == nil, let album = albums.path(of: member.album),
              let probed = probe.takenAt[album.appending(member.name)], let taken = probed else { return }
        try rows.setCaptureTime(taken, memberRowID: member.rowID)
        member.takenAt = taken
    }
}

/// A path a batch needed that its probe had not looked at: the event stops before any write.
/// (Outside `IndexBatch`: a typed throw of a type nested in a generic one crashes Swift 6.3's optimizer.)
struct Unprobed: Error {
    let path: RelativePath
}
