import Logging
import PhotoLibCore
import PhotoLibStore
import Synchronization

/// The access report (SPEC §9): what each app opened through its view, and
/// what it was handed by a pick, kept for the configured time. The rules
/// (which asset an entry is, when opens are one line) are `ViewOpen`'s.
///
/// Owns the views' open watcher, the last line written per app and asset, and
/// when the log was last pruned; the engine hands it each batch of opens with
/// the album tree they are named in.
final class AccessReport: Sendable {
    /// Watches the views for opens (nil when the report does not count opens).
    let watcher: ViewOpenWatcher?
    private let store: Store
    private let clock: any WallClock
    private let logger: Logger
    /// How long lines are kept, in seconds.
    private let retention: Int64
    /// The last line written per app and asset, to make one line of a burst of opens; and when the log was last pruned.
    private let state = Mutex<(lines: OpenCoalescer, lastPrune: Int64)>((OpenCoalescer(), 0))

    init(watcher: ViewOpenWatcher?, store: Store, clock: any WallClock, retention: Int64, logger: Logger) {
        self.watcher = watcher
        self.store = store
        self.clock = clock
        self.retention = retention
        self.logger = logger
    }

    /// Watches exactly these views (each app's view directory).
    func watch(_ views: [AppID: String], skippingMissing: Bool = false) {
        watcher?.sync(views, skippingMissing: skippingMissing)
    }

    /// Writes a batch of opens to the access log, one line per app and asset a minute.
    func record(_ opens: [ViewOpenWatcher.Open], albums: AlbumTree) {
        do {
            let apps = Dictionary(try store.read { try $0.apps() }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var entries: [AccessLogEntry] = []
            // A limited view names assets by the app's own IDs: the library's, by app, for this batch.
            var libraryIDs: [AppID: [AssetID: AssetID]] = [:]
            try store.read { tx in
                for open in opens {
                    guard let app = apps[open.app], let reference = ViewOpen.reference(layout: app.layout, path: open.path) else { continue }
                    let asset: AssetID?
                    switch reference {
                    case .asset(let shown):
                        if libraryIDs[app.id] == nil {
                            libraryIDs[app.id] = Dictionary(try tx.visibleAssets(limitedApp: app.id).map { (app.assetIDs.id(for: $0.id), $0.id) },
                                                            uniquingKeysWith: { first, _ in first })
                        }
                        asset = libraryIDs[app.id]?[shown]
                    case .libraryPath(let path):
                        asset = try path.lastComponent.flatMap { name in
                            try albums.album(at: path.parent ?? .root).flatMap { try tx.asset(album: $0, name: name)?.id }
                        }
                    }
                    guard let asset, state.withLock({ $0.lines.admit(app: app.id, asset: asset, at: open.at) }) else { continue }
                    entries.append(AccessLogEntry(app: app.id, asset: asset, how: .open, request: nil, at: open.at))
                }
            }
            let now = clock.now()
            let prune = now - state.withLock { $0.lastPrune } >= 3_600
            if entries.isEmpty && !prune { return }
            try store.write { tx in
                try tx.logAccess(entries)
                if prune { try tx.pruneAccessLog(before: now - retention) }
            }
            if prune {
                state.withLock { state in
                    state.lastPrune = now
                    state.lines.prune(now: now)
                }
            }
        } catch {
            logger.error("Cannot write \(opens.count) opens to the access report: \(error); they are missing from it.")
        }
    }

    /// Drops what is older than the retention (at start; then hourly with the opens).
    func prune() {
        let now = clock.now()
        do {
            try store.write { try $0.pruneAccessLog(before: now - retention) }
            state.withLock { $0.lastPrune = now }
        } catch {
            logger.warning("Cannot drop access report lines older than the retention: \(error); they are dropped later.")
        }
    }
}
