import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// The Flatpak apps' Pictures folders as views: watched, and brought back when an app changes one.
extension Engine {
    /// Watches the Pictures folder of every Flatpak app that has one (its view is not empty).
    func watchPictures(_ apps: [AppRecord]) {
        // A mirrored folder needs no watch: nothing in it can change, and what the app saves goes to its inbox.
        for app in apps where app.flatpakPictures && app.heldLayout != .empty && !views.isMirrored(app) {
            do {
                let view = try views.openView(app)
                imports.directories.watcher.watchPictures(app.id, view.root)
            } catch {
                logger.error("Cannot open the Pictures folder of \(app.id) to watch it: \(error). What it saves there is taken in only at the next start.")
            }
        }
    }

    /// Brings the Pictures folders that changed back to their views: what an app saved is taken
    /// in (limited) or kept, an entry it renamed, deleted or edited is put back (`SavedInPictures`).
    func reconcilePictures() {
        let changed = imports.directories.watcher.takePicturesChanges()
        guard !changed.isEmpty, lifecycle.libraryAvailable else { return }
        do {
            let apps = try store.read { tx in try changed.compactMap { try tx.app($0) } }.filter(\.flatpakPictures)
            try settle(ChangeSet(reconcile: .apps(Set(apps.map(\.id)))))
        } catch {
            logger.error("Cannot bring a Flatpak Pictures folder back to its view: \(error). It is tried again at its next change and at the next start.")
        }
    }
}

extension Engine {
    /// The installed Flatpak apps (`FlatpakApps.installed`), with what each registered one's Pictures folder holds in copies.
    func installedApps() throws -> [(app: InstalledFlatpakApp, registered: Bool, running: Bool)] {
        try flatpak.installed(copyBytes: copyBytes(of:))
    }

    /// The bytes an app's Pictures folder holds where its filesystem cannot clone (its entries are then
    /// copies); nil where it clones (they share the originals' blocks), and nil — "cannot tell", said in
    /// the log with the folder's error — when the folder or one of its entries cannot be looked at: never
    /// a total that leaves out what could not be read.
    func copyBytes(of app: AppRecord) -> Int64? {
        guard app.heldLayout != .empty, !views.isMirrored(app) else { return nil }
        do {
            let view = try views.openView(app)
            guard case .unsupported = try FileClone.probe(in: view.root) else { return nil }
            var total: Int64 = 0
            for entry in try Directory.list(view.root) where entry.kind == .regular || entry.kind == .unknown {
                // nil: removed since the listing, not there to count.
                if let status = try Directory.status(of: entry.name, in: view.root), status.kind == .regular, status.linkCount == 1 {
                    total += status.size
                }
            }
            return total
        } catch {
            logger.warning("Cannot tell what the Pictures folder of \(app.id) holds in copies: \(error). The page shows no size for it.")
            return nil
        }
    }
}
