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
        try flatpak.installed(copyBytes: views.copyBytes(of:))
    }
}
