import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibStore

/// The access report (SPEC §9): what each app opened through its view, and
/// what it was handed by a pick, kept for the configured time. The rules
/// (which asset an entry is, when opens are one line) are `ViewOpen`'s.
extension Engine {
    /// Watches exactly the views of `apps`.
    func syncViewOpens(_ apps: [AppRecord]) {
        viewOpens?.sync(Dictionary(apps.map { ($0.id, $0.viewPath(views: configuration.views, pictures: views.pictures)) },
                                   uniquingKeysWith: { first, _ in first }))
    }

    /// Writes a batch of opens to the access log, one line per app and asset a minute.
    func recordOpens(_ opens: [ViewOpenWatcher.Open]) {
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
                            try index.albums.album(at: path.parent ?? .root).flatMap { try tx.asset(album: $0, name: name)?.id }
                        }
                    }
                    guard let asset else { continue }
                    guard openLines.admit(app: app.id, asset: asset, at: open.at) else { continue }
                    entries.append(AccessLogEntry(app: app.id, asset: asset, how: .open, request: nil, at: open.at))
                }
            }
            let now = clock.now()
            let prune = now - lastAccessPrune >= 3_600
            if entries.isEmpty && !prune { return }
            try store.write { tx in
                try tx.logAccess(entries)
                if prune { try tx.pruneAccessLog(before: now - configuration.reportRetention) }
            }
            if prune {
                lastAccessPrune = now
                openLines.prune(now: now)
            }
        } catch {
            logger.error("Cannot write \(opens.count) opens to the access report: \(error); they are missing from it.")
        }
    }

    /// Drops what is older than the retention (at start; then hourly with the opens).
    func pruneAccessLog() {
        let now = clock.now()
        do {
            try store.write { try $0.pruneAccessLog(before: now - configuration.reportRetention) }
            lastAccessPrune = now
        } catch {
            logger.warning("Cannot drop access report lines older than the retention: \(error); they are dropped later.")
        }
    }
}
