import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// The one place that changes state: the index, the views, and every admin edit.
///
/// An actor, so watch batches and edits from the socket never interleave
/// inside a change. Reads (status, listings) go to the store directly and do
/// not wait here.
actor Engine {
    let configuration: DaemonConfiguration
    let store: Store
    let board: StatusBoard
    let logger: Logger
    let queue: EventQueue
    let index: LibraryIndex
    let views: ViewMaintainer
    private let access: LibraryAccess
    private var libraryAvailable = true
    private var stopped = false

    /// Batches are capped so a burst is applied in bounded transactions and requests get a turn between them.
    static let batchSize = 2048

    init(configuration: DaemonConfiguration, store: Store, queue: EventQueue, board: StatusBoard, logger: Logger) throws {
        self.configuration = configuration
        self.store = store
        self.queue = queue
        self.board = board
        self.logger = logger
        let root: FileDescriptor
        do {
            root = try Directory.open(path: configuration.library)
        } catch {
            throw PhotoLibError.libraryMissing(path: configuration.library)
        }
        access = LibraryAccess(root: root)
        index = try LibraryIndex(store: store, policy: configuration.namePolicy, access: access, board: board, logger: logger)
        let viewsRoot: FileDescriptor
        do {
            viewsRoot = try Directory.open(path: configuration.views)
        } catch {
            throw PhotoLibError.cannotCreateDirectory(path: configuration.views, errno: error.errno)
        }
        views = ViewMaintainer(viewsRoot: viewsRoot, access: access, logger: logger,
                               paths: (configuration.library, configuration.views))
    }

    // MARK: Watch events

    /// Applies watch events until the queue finishes (at shutdown).
    func run() async {
        for await _ in queue.signals {
            while !stopped {
                let batch = queue.take(maximum: Self.batchSize)
                if batch.isEmpty { break }
                process(batch)
                await Task.yield()
            }
        }
    }

    private func process(_ batch: [WatchEvent]) {
        do {
            let recorder = ChangeRecorder(recording: true)
            let outcome = try index.apply(batch, recorder: recorder)
            for path in outcome.failedWatches.prefix(3) {
                logger.error("No inotify watch on \(path): changes there are seen only by a rescan; raise fs.inotify.max_user_watches.")
            }
            if outcome.rootGone {
                libraryGone()
                return
            }
            if outcome.needsFullScan {
                try rescanAndReconcile()
                return
            }
            guard !recorder.changes.isEmpty else { return }
            let dirty = views.apply(recorder.changes, to: try appContexts())
            for app in dirty {
                if let record = try store.read({ try $0.app(app) }) {
                    _ = try views.reconcile(record, index: index, store: store, libraryAvailable: libraryAvailable)
                }
            }
        } catch {
            logger.error("Applying \(batch.count) library changes failed: \(error); rescanning.")
            try? rescanAndReconcile()
        }
    }

    /// Re-walks the library, then brings every view to the desired state.
    func rescanAndReconcile() throws {
        if !libraryAvailable {
            guard let root = try? Directory.open(path: configuration.library) else { return }
            access.replaceRoot(root)
            libraryAvailable = true
            logger.notice("The library \(configuration.library) is back; rescanning.")
        }
        let started = ContinuousClock.now
        try index.fullScan(recorder: ChangeRecorder(recording: false))
        let scanned = ContinuousClock.now
        try reconcileAllViews()
        ProcessIdentity.releaseFreeMemory()
        board.update { $0.phase = .ready }
        let snapshot = board.snapshot
        logger.info("Library scanned: \(snapshot.scannedFiles) assets in \(snapshot.scannedDirectories) directories in \(scanned - started); views reconciled in \(ContinuousClock.now - scanned).")
    }

    private func reconcileAllViews() throws {
        let apps = try store.read { try $0.apps() }
        try views.removeViews(except: Set(apps.map(\.id)))
        for app in apps {
            _ = try views.reconcile(app, index: index, store: store, libraryAvailable: libraryAvailable)
        }
    }

    private func libraryGone() {
        libraryAvailable = false
        board.update { $0.phase = .libraryMissing }
        do {
            try reconcileAllViews()
        } catch {
            logger.error("Could not empty the views after the library disappeared: \(error)")
        }
    }

    private func appContexts() throws -> [ViewMaintainer.AppContext] {
        try store.read { tx in
            try tx.apps().filter { $0.layout != .empty }.map { app in
                app.layout == .limited
                    ? ViewMaintainer.AppContext(app: app, selectedAssets: try tx.selectedAssetRowIDs(app.id),
                                                selectedAlbums: try tx.selectedAlbums(app.id))
                    : ViewMaintainer.AppContext(app: app, selectedAssets: [], selectedAlbums: [])
            }
        }
    }

    /// Stops applying events (the current batch finishes first, being on this actor).
    func stop() {
        stopped = true
    }

    // MARK: Admin edits

    func addApp(_ id: AppID, uid: UInt32, purpose: String) throws -> AppRecord {
        let record = AppRecord(id: id, uid: uid, purpose: purpose, readWrite: .notDetermined, addOnly: .notDetermined)
        try store.write { tx in
            if let existing = try tx.app(id) { throw PhotoLibError.appExists(id, uid: existing.uid) }
            try tx.insertApp(record, createdAt: Int64(time(nil)))
        }
        _ = try views.reconcile(record, index: index, store: store, libraryAvailable: libraryAvailable)
        logger.notice("App \(id) registered for uid \(uid).")
        return record
    }

    func removeApp(_ id: AppID) throws {
        try store.write { tx in
            guard try tx.app(id) != nil else { throw PhotoLibError.unknownApp(id) }
            try tx.deleteApp(id)
        }
        try views.removeView(id)
        logger.notice("App \(id) removed; its view is gone.")
    }

    func authorize(_ id: AppID, access level: AccessLevel, status: AuthorizationStatus) throws -> AppRecord {
        let record = try store.write { tx -> AppRecord in
            guard try tx.app(id) != nil else { throw PhotoLibError.unknownApp(id) }
            try tx.setAuthorization(id, access: level, status: status)
            return try tx.app(id)!
        }
        _ = try views.reconcile(record, index: index, store: store, libraryAvailable: libraryAvailable)
        logger.notice("App \(id) is now \(status.rawValue) for \(level.rawValue).")
        return record
    }

    /// A selection edit as resolved references.
    struct SelectionEdit {
        var assets: [AssetRecord]
        var albums: [AlbumTree.ID]
    }

    /// Resolves what a person typed: asset IDs, paths in the library, album paths.
    func resolve(assets: [String], albums albumTexts: [String]) throws -> SelectionEdit {
        var edit = SelectionEdit(assets: [], albums: [])
        try store.read { tx in
            for text in assets {
                if let id = AssetID(text), let record = try tx.asset(id: id) {
                    edit.assets.append(record)
                    continue
                }
                guard let path = libraryRelativePath(text), let name = path.lastComponent,
                      let album = index.albums.album(at: path.parent ?? .root),
                      let record = try tx.asset(album: album, name: name) else {
                    throw AssetID(text) != nil ? PhotoLibError.unknownAsset(text) : PhotoLibError.notAnAsset(path: text)
                }
                edit.assets.append(record)
            }
        }
        for text in albumTexts {
            guard let path = libraryRelativePath(text), let album = index.albums.album(at: path) else {
                throw PhotoLibError.unknownAlbum(path: text)
            }
            edit.albums.append(album)
        }
        return edit
    }

    /// A path as typed: relative to the library, or absolute inside it.
    private func libraryRelativePath(_ text: String) -> RelativePath? {
        var relative = text
        let prefix = configuration.library.hasSuffix("/") ? configuration.library : configuration.library + "/"
        if text.hasPrefix("/") {
            guard text.hasPrefix(prefix) || text == configuration.library else { return nil }
            relative = String(text.dropFirst(min(prefix.count, text.count)))
        }
        return RelativePath(escaped: relative)
    }

    /// Adds to (or, with `adding: false`, removes from) an app's selection; returns what changed.
    func editSelection(_ id: AppID, assets: [String], albums: [String], adding: Bool) throws -> (assets: [AssetID], albums: [RelativePath]) {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        let edit = try resolve(assets: assets, albums: albums)
        let (changedAssets, changedAlbums) = try store.write { tx in
            adding
                ? (try tx.selectAssets(id, rowIDs: edit.assets.map(\.rowID)), try tx.selectAlbums(id, albums: edit.albums))
                : (try tx.deselectAssets(id, rowIDs: edit.assets.map(\.rowID)), try tx.deselectAlbums(id, albums: edit.albums))
        }
        if app.layout == .limited {
            var affected = edit.assets.filter { changedAssets.contains($0.rowID) }
            if !changedAlbums.isEmpty {
                affected += try store.read { tx in try tx.assets(inAlbums: changedAlbums.flatMap { index.albums.subtree(of: $0) }) }
            }
            let changes: [ViewChange] = affected.compactMap { record in
                guard let located = index.locate(record) else { return nil }
                return adding ? .asset(old: nil, new: located) : .asset(old: located, new: located)
            }
            let contexts = try appContexts().filter { $0.app.id == id }
            if !views.apply(changes, to: contexts).isEmpty {
                _ = try views.reconcile(app, index: index, store: store, libraryAvailable: libraryAvailable)
            }
        }
        let changedAssetIDs = edit.assets.filter { changedAssets.contains($0.rowID) }.map(\.id)
        let changedAlbumPaths = changedAlbums.compactMap { index.albums.path(of: $0) }
        logger.info("Selection of \(id) \(adding ? "gained" : "lost") \(changedAssetIDs.count) assets and \(changedAlbumPaths.count) albums.")
        return (changedAssetIDs, changedAlbumPaths)
    }
}

