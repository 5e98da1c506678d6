import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Keeps the SQLite index equal to the library: applies watch events and scans.
///
/// What a batch of events or a scan's listings *means* is decided in the core (`IndexBatch`, on
/// what the batch's probe looked at and the rows it reads); this type gathers the probe (or is
/// handed it), opens the one write transaction the batch's edits go through, and keeps what the
/// batch leaves: the album tree, the paths that could not be read. Owned by the engine; not thread-safe.
final class LibraryIndex {
    let store: Store
    /// Which names are photos and videos, and which are hidden or temporary.
    let policy: AssetNamePolicy
    /// The library, through descriptors of the index's own.
    let access: LibraryAccess
    let board: StatusBoard
    let logger: Logger
    /// The uid photolibd runs as: files it does not own are refused (`LinkRefusal`).
    let daemonUID: UInt32
    /// Whether the library's inode numbers name its files (not on FUSE or SMB: `FilesystemKind.trustsInodeNumbers`).
    let trustsInodes: Bool
    var albums: AlbumTree
    /// Library paths that could not be read at the last look, and why: their
    /// rows are kept as they were, and `status` says `degraded` until they can be read.
    var unreadable: [RelativePath: FileSystemFailure] = [:] {
        didSet { if unreadable != oldValue { publishUnreadable() } }
    }
    /// Set while some app has a rule grant: new and changed files are looked at for when they were taken.
    var captureClock: CaptureClock?
    /// The digests of the rows the last clean stop left (`AlbumDigests`), until the first write of any
    /// kind: only the start's scan may use them, and only if nothing was written before it.
    var recordedDigests: AlbumDigests?

    init(store: Store, policy: AssetNamePolicy, access: LibraryAccess, board: StatusBoard, ownerUID: UInt32, logger: Logger,
         trustsInodes: Bool = true) throws {
        self.store = store
        self.policy = policy
        self.access = access
        self.board = board
        self.logger = logger
        daemonUID = ownerUID
        self.trustsInodes = trustsInodes
        albums = try store.read { try $0.albumTree() }
    }

    /// Where an asset and its members are now, in the index's album tree.
    func locate(_ record: AssetRecord) -> LocatedAsset? {
        LocatedAsset(record, in: albums)
    }

    /// What a batch of events asks of the engine beyond the index changes.
    typealias Outcome = IndexBatch<TransactionRows>.Outcome
    /// Runs in a batch's transaction once its edits are written: the changes recorded, and the album tree as the batch left it.
    typealias InTransaction = (StoreTransaction, ChangeRecorder, AlbumTree) throws -> Void

    /// What a batch's probe needs of the index as it stands now.
    var probeBasis: LibraryProbe.Basis {
        LibraryProbe.Basis(policy: policy, albums: albums, readsCaptureTimes: captureClock != nil, digests: recordedDigests)
    }

    /// Applies a batch of watch events in one transaction, probed here first through the
    /// index's own descriptors; `inTransaction` runs at its end with the recorded changes.
    func apply(_ events: [WatchEvent], recorder: ChangeRecorder, inTransaction: InTransaction = { _, _, _ in }) throws -> Outcome {
        // Descriptors opened since the last batch (by view links, say) may
        // predate a chmod: an open directory lists whatever its mode is now.
        access.invalidate()
        let probe = LibraryProbe.gather(events, basis: probeBasis, looking: access)
        return try apply(events, probe: probe, recorder: recorder, inTransaction: inTransaction)
    }

    /// Applies a batch of watch events in one transaction that reads what `probe` looked at
    /// before it (every look at the disk the batch needs, made before the write lock is
    /// taken); `inTransaction` runs at its end with the recorded changes (to log them atomically).
    func apply(_ events: [WatchEvent], probe: LibraryProbe, recorder: ChangeRecorder, inTransaction: InTransaction = { _, _, _ in }) throws -> Outcome {
        let batch = try write(probe: probe, recorder: recorder, inTransaction: inTransaction) { try $0.apply(events) }
        if !batch.outcome.unprobed.isEmpty {
            logger.warning("""
                A batch needed \(batch.outcome.unprobed.count) paths its look had not seen (\(batch.outcome.unprobed.prefix(3).map(\.description).joined(separator: ", "))): \
                their events changed nothing, and a full scan looks at them.
                """)
        }
        return batch.outcome
    }

    /// Runs one batch (`body`, given the core's `IndexBatch` over this transaction's rows) in one
    /// write transaction, and keeps what it leaves once that commits: a batch that fails leaves the
    /// index's tree and unreadable paths as they were, with its rows.
    func write(probe: LibraryProbe, recorder: ChangeRecorder, inTransaction: InTransaction,
               _ body: (inout IndexBatch<TransactionRows>) throws -> Void) throws -> IndexBatch<TransactionRows> {
        access.invalidate()
        defer { access.invalidate() }
        let (albums, unreadable, policy, daemonUID, trustsInodes) = (albums, unreadable, policy, daemonUID, trustsInodes)
        var wrote = false
        let batch = try store.write { tx in
            var batch = IndexBatch(rows: TransactionRows(tx: tx), albums: albums, unreadable: unreadable,
                                   probe: probe, policy: policy, daemonUID: daemonUID, recorder: recorder, trustsInodes: trustsInodes,
                                   checkpoint: { try StopRequest.checkpoint() })
            let before = tx.totalChanges
            try body(&batch)
            wrote = tx.totalChanges != before
            try inTransaction(tx, recorder, batch.albums)
            return batch
        }
        // The rows may differ from those digested once the index wrote any (a batch that only asks
        // for the start's scan writes none).
        if wrote { recordedDigests = nil }
        self.albums = batch.albums
        self.unreadable = batch.unreadable
        // Descriptors kept for albums' old places point elsewhere now.
        if batch.outcome.albumsRearranged { access.retire() }
        return batch
    }
}
