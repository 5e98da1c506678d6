import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Keeps the SQLite index equal to the library: applies watch events and scans.
///
/// Identity rules (SPEC §2): an asset keeps its ID when renamed or moved
/// (paired rename events), when its album is renamed or moved (one album row
/// changes), and when a file is renamed over it (an atomic save: the ID stays,
/// the content counts as changed). Owned by the engine; not thread-safe.
///
/// An asset is an ID and its member files: one file, or the image and video
/// of a Live Photo. File events change members; after each batch or scan,
/// the stems they touched are paired again (`LivePairing`).
///
/// What an event or a listing *means* is decided by the core (`FileRefresh`,
/// `DirectoryPlan`, `FileIdentity`, `LibraryScope`, `LivePairing`); this type
/// looks things up, asks, and writes the answer to the store.
final class LibraryIndex {
    /// What the index is given at start and never changes; its parts are read by name.
    let setting: IndexSetting
    var albums: AlbumTree
    var generator = BufferedRandom()
    /// Library paths that could not be read at the last look, and why: their
    /// rows are kept as they were, and `status` says `degraded` until they can be read.
    var unreadable: [RelativePath: FileSystemFailure] = [:] {
        didSet { publishUnreadable() }
    }
    /// Stems whose files changed in the current batch, by album: paired again at its end.
    var touchedStems: [AlbumTree.ID: Set<[UInt8]>] = [:]
    /// Albums whose every file is paired again at the end of the batch (scanned ones).
    var touchedAlbums: Set<AlbumTree.ID> = []
    /// Set while some app has a rule grant: new and changed files are looked at for when they were taken.
    var captureClock: CaptureClock?
    /// Set while a batch's write transaction is open: what it looked at before (`LibraryProbe`).
    var probe: LibraryProbe?
    /// New files a batch found, stored many to a statement before anything reads the index again.
    var arrivals = PendingArrivals()

    init(store: Store, policy: AssetNamePolicy, access: LibraryAccess, board: StatusBoard, ownerUID: UInt32, logger: Logger) throws {
        setting = IndexSetting(store: store, policy: policy, access: access, board: board, logger: logger, daemonUID: ownerUID)
        albums = try store.read { try $0.albumTree() }
    }

    var store: Store { setting.store }
    var policy: AssetNamePolicy { setting.policy }
    var access: LibraryAccess { setting.access }
    var board: StatusBoard { setting.board }
    var logger: Logger { setting.logger }
    var daemonUID: UInt32 { setting.daemonUID }

    /// The asset as it stands in the store now, when changes are being recorded.
    func snapshot(_ asset: Int64, tx: StoreTransaction, recorder: ChangeRecorder) throws -> LocatedAsset? {
        guard recorder.isRecording else { return nil }
        return try tx.asset(rowID: asset).flatMap(locate)
    }

    /// A library entry as the batch's probe found it (the disk itself only outside a probed batch, as in a full scan).
    func lookUp(_ path: RelativePath) -> Lookup<FileObservation> {
        probe?.lookups[path] ?? access.lookUp(path)
    }

    func touch(_ album: AlbumTree.ID, _ name: FileName) {
        touchedStems[album, default: []].insert(name.stem)
    }

    // MARK: Events

    /// What a batch of events asks of the engine beyond the index changes.
    struct Outcome {
        var needsFullScan = false
        /// The kernel dropped events: what happened meanwhile is unknown.
        var overflowed = false
        var rootGone = false
        var failedWatches: [RelativePath] = []
    }

    /// What a batch's probe needs of the index as it stands now.
    var probeBasis: LibraryProbe.Basis {
        LibraryProbe.Basis(policy: policy, albums: albums, readsCaptureTimes: captureClock != nil)
    }

    /// Applies a batch of watch events in one transaction, probed here first through the
    /// index's own descriptors; `inTransaction` runs at its end with the recorded changes.
    func apply(
        _ events: [WatchEvent], recorder: ChangeRecorder,
        inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }
    ) throws -> Outcome {
        // Descriptors opened since the last batch (by view links, say) may
        // predate a chmod: an open directory lists whatever its mode is now.
        access.invalidate()
        let probe = LibraryProbe.gather(events, basis: probeBasis, looking: access)
        return try apply(events, probe: probe, recorder: recorder, inTransaction: inTransaction)
    }

    /// Applies a batch of watch events in one transaction that reads what `probe` looked at
    /// before it (every look at the disk the batch needs, made before the write lock is
    /// taken); `inTransaction` runs at its end with the recorded changes (to log them atomically).
    func apply(
        _ events: [WatchEvent], probe: LibraryProbe, recorder: ChangeRecorder,
        inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }
    ) throws -> Outcome {
        var outcome = Outcome()
        access.invalidate()
        defer { access.invalidate() }
        self.probe = probe
        defer { self.probe = nil; arrivals = PendingArrivals() }  // a failed batch's transaction is rolled back with them
        try store.write { tx in
            for event in events {
                let step = IndexStep.of(event)
                if arrivals.mustStore(before: step) { try storeArrivals(tx: tx, recorder: recorder) }
                switch step {
                case .refreshFile(let path, let admission):
                    try refreshFile(path, tx: tx, recorder: recorder, admission: admission)
                case .rescanSubtree(let path):
                    // Readable again (or no longer): look at the whole subtree anew (the probe listed it with fresh descriptors).
                    access.retire()
                    let wasUnreadable = unreadable.keys.contains(where: { $0.isWithin(path) })
                    if albums.album(at: path) != nil || wasUnreadable {
                        try scanNewDirectory(path, tx: tx, recorder: recorder)
                    }
                    if wasUnreadable, !unreadable.keys.contains(where: { $0.isWithin(path) }), let album = albums.album(at: path) {
                        // Links that could not be made while it was unreadable (a
                        // selection edited meanwhile) are made now: each asset
                        // below is offered to the views again, unchanged.
                        for record in try tx.assets(inAlbums: albums.subtree(of: album)) {
                            recorder.record(.asset(old: locate(record), new: locate(record)))
                        }
                    }
                case .moveFile(let from, let to):
                    try moveFile(from: from, to: to, tx: tx, recorder: recorder)
                case .moveAlbum(let from, let to):
                    try moveAlbum(from: from, to: to, tx: tx, recorder: recorder)
                case .scanNewDirectory(let path):
                    try scanNewDirectory(path, tx: tx, recorder: recorder)
                case .removeAlbum(let path):
                    try removeAlbum(path, tx: tx, recorder: recorder)
                case .removeFile(let path):
                    try removeFile(path, tx: tx, recorder: recorder)
                case .fullScan(let overflowed):
                    outcome.needsFullScan = true
                    if overflowed { outcome.overflowed = true }
                case .rootGone:
                    outcome.rootGone = true
                case .watchFailed(let path):
                    outcome.failedWatches.append(path)
                }
            }
            try storeArrivals(tx: tx, recorder: recorder)
            try pairTouched(tx: tx, recorder: recorder)
            try inTransaction(tx, recorder)
        }
        return outcome
    }
}
