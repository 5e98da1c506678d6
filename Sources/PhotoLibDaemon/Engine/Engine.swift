import PhotoLibConfiguration
import Glibc
import Logging
import PhotoLibCore
import PhotoLibDoctor
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// The one place that changes state: the index, the views, and every admin edit.
///
/// An actor, so watch batches and edits from the socket never interleave
/// inside a change. Reads (status, listings) go to the store directly and do
/// not wait here. What may wait on the library (a batch's probe, a scan's
/// walk) runs on a thread of its own (`libraryLane`), awaited, and the engine
/// answers other changes meanwhile.
actor Engine {
    /// The thread every look at the library is made on (a batch's probe, a scan's walk), in turn.
    nonisolated let libraryLane: BlockingLane
    // What the daemon hands the engine when it starts, and never changes while it runs; the engine's
    // state lives in its owners below.
    nonisolated let configuration: DaemonConfiguration
    nonisolated let store: Store
    /// The library's watch events, in order.
    nonisolated let queue: EventQueue
    /// Where `settle` publishes.
    nonisolated let hub: any EventPublishing
    /// The time of day, for grant ends, requests, imports and the report.
    nonisolated let clock: any WallClock
    /// The uid the daemon runs as: the library's owner.
    nonisolated let ownerUID: UInt32
    nonisolated let board: StatusBoard
    nonisolated let logger: Logger
    /// Wakes the expiry pass when a grant's end changes (`expireGrants`).
    nonisolated let expiryAlarm: ExpiryAlarm
    /// Wakes the place finder when new or edited files wait to be looked at.
    nonisolated let placesDue: PlaceWake
    /// What a batch's probe and a round look at the library through: the disk, or a test's stand-in.
    nonisolated let libraryLooker: LibraryLookerMaker
    /// Whether a watch batch's look at the library is made on the library's thread (a remote
    /// library, whose server can stop answering) or on the engine's own (a local one, without a hop).
    nonisolated let isolatesLibrary: Bool
    /// The library as indexed: assets, albums, what could not be read.
    let index: LibraryIndex
    /// Every app's view directory, and the derivatives without location.
    let views: ViewMaintainer
    /// Every change's journal entries, made into the events `settle` publishes.
    let journal: ChangeJournal
    /// The registered apps: each record made, changed and removed.
    let apps: AppRegistry
    /// What each app is granted: its selection and its statuses, planned and written.
    let grants: AppGrants
    /// Who waits for the person: requests' answers, picks, the desktop prompt.
    let requests: RequestDesk
    /// Files apps leave in their inboxes, taken into the library; every app's inbox, and the thread that watches them.
    let imports: InboxImports
    /// What each app opened and was handed, and the views' open watcher.
    let report: AccessReport
    /// Installed Flatpak apps: which are, what each reaches, the lines photolibd keeps in their overrides.
    nonisolated let flatpak: FlatpakApps
    /// Ready or not, stopping or not, the library there or not.
    var lifecycle = EngineLifecycle()
    /// What one change leaves for the next.
    var carried = CarriedBetweenChanges()
    /// Which change writes the library's rows now (`LibraryTurn`).
    var libraryTurn = LibraryTurn()
    /// Verification rounds, and whether a network library's server answers.
    var rounds: LibraryRounds
    /// The views' stamps a clean stop left, and whether the views are in step to record new ones.
    var stamping = ViewStampKeeping()

    /// Batches are capped so a burst is applied in bounded transactions and requests get a turn between them.
    static let batchSize = 2048

    /// Changes recorded by one rescan before the apps are told "reload" instead of a list.
    static let rescanChangeLimit = 20_000

    init(configuration: DaemonConfiguration, store: Store, queue: EventQueue, board: StatusBoard, hub: any EventPublishing, logger: Logger,
         clock: any WallClock, ownerUID: UInt32, libraryLooker: @escaping LibraryLookerMaker = LibraryAccess.probing,
         isolateLibrary: Bool? = nil) throws {
        let root: FileDescriptor
        do {
            root = try Directory.open(path: configuration.library)
        } catch {
            throw PhotoLibError.libraryMissing(path: configuration.library)
        }
        // Unknown (fstatfs failed): isolated, which costs a hop per batch and never a blocked engine.
        let filesystem = try? FileClone.filesystem(of: root)
        let isolates = isolateLibrary ?? (filesystem?.isRemote ?? true)
        if isolates {
            logger.info("The library is on \(filesystem?.name ?? "a filesystem fstatfs cannot name"): every look at it is made on a thread of its own, so a server that stops answering holds that thread and not the daemon.")
        }
        self.configuration = configuration
        self.store = store
        self.queue = queue
        self.hub = hub
        self.clock = clock
        self.ownerUID = ownerUID
        self.board = board
        self.logger = logger
        expiryAlarm = ExpiryAlarm(clock: clock)
        placesDue = PlaceWake()
        self.libraryLooker = libraryLooker
        isolatesLibrary = isolates
        rounds = LibraryRounds(filesystem: filesystem, daemonUID: ownerUID)
        journal = ChangeJournal(retention: configuration.historyRetention)
        apps = AppRegistry(journal: journal)
        grants = AppGrants(journal: journal)
        flatpak = FlatpakApps(store: store, pictures: configuration.flatpakPictures, logger: logger)
        requests = RequestDesk(prompter: DesktopPrompter(logger: logger, socket: configuration.socket))
        do {
            let directories = InboxDirectories(path: configuration.inboxes, ownerUID: ownerUID, watcher: try InboxWatcher(logger: logger),
                                               logger: logger)
            imports = InboxImports(store: store, directories: directories, journal: journal, configuration: configuration, clock: clock,
                                   logger: logger)
            report = AccessReport(watcher: configuration.reportWatchesOpens ? try ViewOpenWatcher(logger: logger, clock: clock) : nil,
                                  store: store, clock: clock, retention: configuration.reportRetention, logger: logger)
        } catch {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.inboxes, errno: error.errno)
        }
        let access = LibraryAccess(root: root)
        let index = try LibraryIndex(store: store, policy: configuration.namePolicy, access: access, board: board, ownerUID: ownerUID,
                                     logger: logger, trustsInodes: filesystem?.trustsInodeNumbers ?? true)
        self.index = index
        let viewsRoot: FileDescriptor
        do {
            viewsRoot = try Directory.open(path: configuration.views)
        } catch {
            throw PhotoLibError.cannotCreateDirectory(path: configuration.views, errno: error.errno)
        }
        let mode = try ViewMaintainer.decideMode(configuration, viewsRoot: viewsRoot, library: root, libraryFilesystem: filesystem)
        board.update { $0.viewMode = mode }
        let derivatives: DerivativeCatalog
        do {
            derivatives = try DerivativeCatalog(viewsRoot: viewsRoot, checks: try store.read { try $0.locationChecks() }, form: mode.form,
                                                logger: logger)
        } catch let error as SystemCallError {
            throw PhotoLibError.cannotCreateDirectory(path: configuration.views + "/" + DerivativeCatalog.directoryName.description,
                                                      errno: error.errno)
        }
        // Made whatever the form: a Flatpak app's Pictures folder is always clones or copies.
        let staging: CloneStaging
        do {
            staging = try CloneStaging.open(in: viewsRoot, workers: ViewMaintainer.maximumWorkers)
        } catch {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.views + "/" + CloneStaging.name.description, errno: error.errno)
        }
        views = ViewMaintainer(viewsRoot: viewsRoot, access: access, derivatives: derivatives, ownerUID: ownerUID, logger: logger,
                               paths: (configuration.library, configuration.views), staging: staging, form: mode.form,
                               pictures: configuration.flatpakPictures, board: board, fuse: configuration.fuseViews)
        if try store.read({ try $0.anyRules() }) { index.readsCaptureTimes = true }
        // Deleted before anything can change (`ViewStamps`): a crash from here on leaves none for the
        // next start. A photolibd that upgraded the store may lay views out otherwise: none is trusted.
        let (recorded, digests) = try store.write { tx in (try tx.takeViewStamps(), try tx.takeAlbumDigests()) }
        stamping.recorded = store.migrated.isEmpty ? recorded : nil
        if store.migrated.isEmpty, let digests, digests.fingerprint == Self.digestFingerprint(library: configuration.library) {
            index.recordedDigests = digests
        }
        // Made last: nothing after it throws, so a thread is never left behind by an engine that did not start.
        do throws(SystemCallError) {
            libraryLane = try BlockingLane(name: "library")
        } catch {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.state, errno: error.errno)
        }
        let inboxes = imports.directories
        views.inboxOf = { inboxes.directory(of: $0) }
        views.inboxPathOf = { inboxes.path(of: $0) }
    }

    deinit { libraryLane.close() }

    // MARK: Watch events

    /// Applies watch events until the queue finishes (at shutdown).
    func run() async {
        var sinceRelease = 0
        for await _ in queue.signals {
            var chained = 0
            while !lifecycle.stopped {
                let batch = queue.take(maximum: Self.batchSize)
                if batch.isEmpty { break }
                // Weighed by what it changed: one event for a directory moved in may index thousands of files.
                sinceRelease += max(batch.count, await process(batch))
                // The next batch is indexed while this one's links are made; the links land before
                // the engine waits for anything, so no other request ever sees them in flight.
                chained += 1
                if queue.isEmpty || chained >= Self.pipelineDepth || lifecycle.stopped {
                    await landTailOrRescan()
                    chained = 0
                    await Task.yield()
                }
            }
            await landTailOrRescan()
            // A burst grew the heap (events, rows, view changes); each time the
            // queue runs dry after one, hand what it freed back to the kernel
            // rather than keep it until the next full scan.
            if sinceRelease >= Self.batchSize {
                store.releaseMemory()
                ProcessIdentity.releaseFreeMemory()
                sinceRelease = 0
            }
        }
    }

    /// Applies one batch; returns how many changes it recorded.
    ///
    /// The batch's look at the library (`LibraryProbe`) is made on a thread of its own: a library
    /// whose server stopped answering holds that thread, and the engine answers other changes
    /// meanwhile. Everything after it reads what the index and the views are once it is back.
    @discardableResult
    func process(_ batch: [WatchEvent]) async -> Int {
        await takeLibraryTurn()
        defer { endLibraryTurn() }
        let started = ContinuousClock.now
        // Copies without location are made with the probe, before the write transaction, which only adopts them.
        // Contexts that cannot be read now make no copy ahead: the transaction decides from what is known and a
        // member still to be looked at is looked at once committed; the read below reports the error itself.
        let probe = await probeLibrary(for: batch, lookingAhead: index.lookAheadJob(batch, for: (try? appContexts()) ?? []))
        let lookedAhead = ContinuousClock.now
        if lifecycle.stopped {
            // Stopped while the library was looked at: the next start scans it anyway.
            views.derivatives.settleLookAhead(committed: false)
            logger.notice("Stopping before \(batch.count) library changes were applied: the next start finds them.")
            return batch.count
        }
        do {
            // Selections as they were before the batch (read once the look is back: other changes
            // may have come in meanwhile): an asset deleted by it was visible, and the apps must hear that it left.
            let contexts: [AppViewContext]
            do {
                contexts = try appContexts()
            } catch {
                views.derivatives.settleLookAhead(committed: false)
                throw error
            }
            let recorder = ChangeRecorder(recording: true, limit: Self.rescanChangeLimit)
            var published: [PublishedEvent] = []
            let outcome: LibraryIndex.Outcome
            do {
                outcome = try index.apply(batch, probe: probe, recorder: recorder) { tx, recorder, albums in
                    views.decideWithoutLocation(recorder.changes.compactMap(\.newAsset), for: contexts)
                    published = try journal.recordLibraryChanges(
                        recorder.changes, overflowed: recorder.overflowed, contexts: contexts, albums: albums, tx: tx)
                }
            } catch {
                views.derivatives.settleLookAhead(committed: false)
                throw error
            }
            views.derivatives.settleLookAhead(committed: true)
            let indexed = ContinuousClock.now
            // The last batch's links were made meanwhile: they land before this batch touches a view,
            // awaited without holding a thread, and with no other change let in before this one settles.
            await awaitTailHoldingGate()
            try landTail()
            let landed = ContinuousClock.now
            defer {
                // Where a burst's time goes, batch by batch (--verbose): the figures behind the benchmark's burst tails.
                logger.debug("""
                    A batch of \(batch.count) events, \(recorder.changes.count) changes: probed and looked ahead in \(lookedAhead - started), \
                    indexed in \(indexed - lookedAhead), the last batch landed in \(landed - indexed), views in \(ContinuousClock.now - landed).
                    """)
            }
            // A listing that disagreed with its stats is made again by the next round, whatever the stamp says.
            rounds.forget(outcome.unsettled)
            for path in outcome.failedWatches.prefix(3) {
                logger.error("No inotify watch on \(path): changes there are seen only by a rescan; raise fs.inotify.max_user_watches.")
            }
            let settlement = LibraryPlan.settle(
                rootGone: outcome.rootGone, needsFullScan: outcome.needsFullScan, eventsLost: outcome.overflowed, tooMany: recorder.overflowed,
                changes: recorder.changes.count, moreQueued: !queue.isEmpty, apps: Set(contexts.map(\.app.id)))
            var changes = ChangeSet(acts: LibraryPlan.batchActs(settlement, changes: recorder.changes), events: published)
            switch settlement {
            case .libraryGone:
                try settle(changes)
                try libraryGone()
                return recorder.changes.count
            case .fullScan(let reloadEveryApp):
                try settle(changes)
                // After lost events every subscriber is told to reload (a
                // `change` with `incremental: false`), whatever the rescan finds.
                try await rescanAndReconcile(reloadEveryApp: reloadEveryApp)
                return recorder.changes.count
            case .reconcile:
                break
            case .linkAlongside:
                // More to index meanwhile: this batch's links are made on other threads, and it is settled once they land.
                let (dirty, flight) = views.applyLeavingLinks(recorder.changes, to: contexts)
                flight.launch()
                changes.acts.reconcile = .apps(dirty)
                changes.flight = flight
                carried.tail = changes
                return recorder.changes.count
            case .linkHere:
                // Nothing to index meanwhile (a lone change, the end of a burst): linked here, without a thread hop.
                if !recorder.changes.isEmpty { changes.incremental = (recorder.changes, contexts) }
            }
            try settle(changes)
            return recorder.changes.count
        } catch is StopRequested {
            // What committed stands; the views it touched are reconciled at the next start, as after a crash.
            logger.notice("Stopping in the middle of \(batch.count) library changes: what is recorded stands, and the views are brought up to date at the next start.")
            return batch.count
        } catch {
            logger.error("Applying \(batch.count) library changes failed: \(error); rescanning.")
            // What is in flight lands first: the rescan reconciles every view.
            await readyForChange()
            landTailOrLog()
            do {
                try await rescanAndReconcile()
            } catch {
                logger.error("The rescan after that failed too: \(error). The views stay as they were; the next library change, or 'photolibctl rescan', tries again.")
            }
            return batch.count
        }
    }

    /// Runs `trigger` (which makes the watcher re-add every watch and so ask
    /// for a full scan), then waits until a full scan has finished.
    ///
    /// A scan whose walk is under way now does not answer it: each scan answers
    /// only the waiters there were when its walk began (`rescanAndReconcile`),
    /// so the one waited for looked at the library after the trigger.
    func rescan(trigger: () -> Void) async throws(PhotoLibError) {
        guard lifecycle.libraryAvailable else { throw .libraryMissing(path: configuration.library) }
        await withCheckedContinuation { continuation in
            lifecycle.waitForScan(continuation)
            trigger()
        }
        guard lifecycle.libraryAvailable else { throw .libraryMissing(path: configuration.library) }
    }

    /// Re-walks the library, then brings every view to the desired state. The caller holds the
    /// library's turn (`LibraryTurn`): the walk is made on threads of its own, and the engine
    /// answers other changes meanwhile.
    func rescanAndReconcile(reloadEveryApp: Bool = false) async throws {
        let waiting = lifecycle.takeScanWaiters()
        defer { for waiter in waiting { waiter.resume() } }
        if !lifecycle.libraryAvailable {
            // Looked for on the library's thread: a server that stopped answering holds that thread, not the engine.
            let library = configuration.library
            let reopened = await libraryLane.run { Result { () throws(SystemCallError) in try Directory.open(path: library) } }
            // Still not there (or not reachable): the library stays unavailable, as status says, until it is.
            guard case .success(let root) = reopened else { return }
            index.access.replaceRoot(root)
            lifecycle.libraryAvailable = true
            logger.notice("The library \(configuration.library) is back; rescanning.")
        }
        let started = ContinuousClock.now
        index.beginFullScan()
        // Only the first scan after the start may trust the stamps, and only if nothing was settled before it.
        let recorded = stamping.recorded
        stamping.recorded = nil
        var published: [PublishedEvent] = []
        var changed: Set<AlbumTree.ID> = []
        var walksWhole = true
        if try scansInParts(contexts: try appContexts()) {
            let parted = try await scanInParts()
            changed = parted.changedAlbums
            walksWhole = parted.needsFullScan
            if walksWhole {
                index.beginFullScan()  // counted and looked at anew, whole
            } else {
                published = try reloadAppsAddedDuringParts()
            }
        }
        if walksWhole {
            let walked = try await walkLibrary()
            // Read after the walk, in the transaction's turn: an app added or changed while it walked is told as it is now.
            let contexts = try appContexts()
            let recorder = ChangeRecorder(recording: !contexts.isEmpty && !reloadEveryApp, limit: Self.rescanChangeLimit)
            changed.formUnion(try index.fullScan(walked: walked, recorder: recorder) { tx, recorder, albums in
                published = try journal.recordLibraryChanges(
                    recorder.changes, overflowed: recorder.overflowed || reloadEveryApp, contexts: contexts, albums: albums, tx: tx)
            })
        }
        let scanned = ContinuousClock.now
        // `.every` collects every derivative no view links; the inboxes are made and watched, and then
        // what arrived in them while the daemon was stopped (or the library was away) is swept in.
        var scan = ChangeSet(acts: LibraryPlan.scanned, events: published)
        if let recorded { scan.viewTrust = try viewTrust(recorded, changedAlbums: changed) }
        try settle(scan)
        imports.directories.watcher.sweepAll()
        store.releaseMemory()
        ProcessIdentity.releaseFreeMemory()
        board.update { $0.phase = .ready }
        let snapshot = board.snapshot
        let apps = try store.read { try $0.apps().count }
        lifecycle.announce(status: "Ready: \(snapshot.scannedFiles) assets in \(snapshot.scannedDirectories) directories, \(apps) apps.")
        logger.info("Library scanned: \(snapshot.scannedFiles) assets in \(snapshot.scannedDirectories) directories in \(scanned - started); views reconciled in \(ContinuousClock.now - scanned).")
    }

    /// How many batches may follow each other with links in flight before the engine lets other requests in.
    static let pipelineDepth = 4

    /// Stops applying events (the current batch finishes first, being on this actor).
    func stop() {
        lifecycle.stop()
        // Unmounted before the daemon goes: an app's mirrored Pictures folder shows nothing once it is stopped.
        views.mirrors.stopAll()
    }

    /// The inbox watcher, for the service that runs its thread.
    func inboxWatcher() -> InboxWatcher { imports.directories.watcher }

    /// Answers once the engine has a turn: the watchdog pings only a live engine.
    func ping() {}
}
