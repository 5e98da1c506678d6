import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Installed Flatpak apps whose Pictures folder is their view (SPEC §11): the lines
/// photolibd keeps in each one's user override.
extension Engine {
    var flatpakFiles: FlatpakFiles { FlatpakFiles(home: views.home) }

    /// How the app reaches ~/Pictures with the person's own lines, photolibd's taken out.
    func picturesReach(of app: AppID) throws -> (reach: PicturesReach, personsOverride: KeyFileText, recorded: PicturesOverride, grantBack: [String]) {
        let files = flatpakFiles
        do {
            var personal = try files.userOverride(of: app) ?? KeyFileText("")
            let recorded = try store.read { try $0.picturesOverride(app) } ?? PicturesOverride()
            recorded.revert(&personal)
            let group = PicturesOverride.group
            let layers = [try files.metadata(of: app), try files.systemOverride(of: app), personal].map { $0?.list("filesystems", in: group) ?? [] }
            let merged = FlatpakFilesystems(layers: layers)
            let reach = merged.reach(pictures: views.pictures.pictures ?? "Pictures", home: views.home)
            return (reach, personal, recorded, PicturesOverride.grantBack(broadModes: merged.modes(of: reach.broad)))
        } catch let error as SystemCallError {
            throw PhotoLibError.flatpakOverrideFailed(app, path: files.userOverridesDirectory, errno: error.errno)
        }
    }

    /// Refuses, before anything changes, a status that would limit an app whose grant reaches far more than photos.
    /// `confirmed`: the person confirmed what such an app loses (`PicturesOverride.loss`), now or before.
    func checkCanLimit(_ app: AppRecord, to status: AuthorizationStatus, confirmed: Bool) throws {
        guard app.flatpakPictures, FlatpakPicturesFolder.limits(status) else { return }
        guard views.pictures.pictures != nil else { throw PhotoLibError.picturesOutsideHome(app.id, home: views.home) }
        let (reach, _, recorded, _) = try picturesReach(of: app.id)
        if !reach.broad.isEmpty, !confirmed, !recorded.tookBroad { throw PhotoLibError.flatpakBroadAccess(app.id, grants: reach.broad) }
    }

    /// Puts photolibd's lines into the app's user override when its status limits it, and
    /// takes exactly them out otherwise (`removing`: the app is being removed). The record of
    /// what is added is stored before the file changes, so a crash between the two never leaves
    /// lines photolibd would not know to remove. Takes effect when the app next starts.
    func syncPicturesOverride(_ app: AppRecord, removing: Bool = false, confirmed: Bool = false) throws {
        guard app.flatpakPictures else { return }
        var (reach, file, recorded, grantBack) = try picturesReach(of: app.id)
        var record = PicturesOverride()
        if !removing, FlatpakPicturesFolder.limits(app.readWrite) {
            // A broad grant is taken only as the person confirmed (`checkCanLimit`); a confirmation holds while the app stays limited.
            record = PicturesOverride.apply(
                PicturesOverride.wanted(reach: reach, pictures: views.pictures.pictures ?? "Pictures", takeBroad: confirmed || recorded.tookBroad,
                                        grantBack: grantBack), to: &file)
        }
        // Written again when the file is not what it should be, whatever the record says: the person's
        // own 'flatpak override' may have rewritten it without photolibd's lines.
        // Read a moment ago by `picturesReach`, which throws what fails; here only compared.
        let onDisk = try? flatpakFiles.userOverride(of: app.id)
        guard record != recorded || (onDisk ?? KeyFileText("")).text != file.text else { return }
        let merged = PicturesOverride(edits: recorded.edits + record.edits)
        try store.write { try $0.setPicturesOverride(app.id, merged) }
        do {
            try flatpakFiles.writeUserOverride(of: app.id, file)
        } catch {
            throw PhotoLibError.flatpakOverrideFailed(app.id, path: flatpakFiles.userOverridesDirectory + "/" + app.id.rawValue, errno: error.errno)
        }
        try store.write { try $0.setPicturesOverride(app.id, record) }
        logger.notice(record.edits.isEmpty
            ? "Took photolibd's lines out of the Flatpak override of \(app.id): it reads its Pictures folder through its own permission from its next start."
            : "The Flatpak override of \(app.id) now makes its Pictures folder its view, from its next start.")
    }
}

extension Engine {
    /// Watches the Pictures folder of every Flatpak app that has one (its view is not empty).
    func watchPictures(_ apps: [AppRecord]) {
        // A mirrored folder needs no watch: nothing in it can change, and what the app saves goes to its inbox.
        for app in apps where app.flatpakPictures && app.heldLayout != .empty && !views.isMirrored(app) {
            do {
                let view = try views.openView(app)
                inboxes.watcher.watchPictures(app.id, view.root)
            } catch {
                logger.error("Cannot open the Pictures folder of \(app.id) to watch it: \(error). What it saves there is taken in only at the next start.")
            }
        }
    }

    /// Brings the Pictures folders that changed back to their views: what an app saved is taken
    /// in (limited) or kept, an entry it renamed, deleted or edited is put back (`SavedInPictures`).
    func reconcilePictures() {
        let changed = inboxes.watcher.takePicturesChanges()
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
    /// The installed Flatpak apps, by name and icon, with what each reaches of the Pictures folder
    /// (the person's override lines counted, photolibd's not), and whether each is registered and running.
    func installedApps() throws -> [(app: InstalledFlatpakApp, registered: Bool, running: Bool)] {
        let files = flatpakFiles
        let deployments: [FlatpakFiles.Deployment]
        do {
            deployments = try files.deployments()
        } catch {
            throw PhotoLibError.flatpakOverrideFailed(AppID("org.flatpak.Installations")!, path: files.userDirectory + "/app", errno: error.errno)
        }
        let registered = Dictionary(try store.read { try $0.apps() }.filter(\.flatpakPictures).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let running = FlatpakFiles.runningApps(runtimeDirectory: ProcessIdentity.environment("XDG_RUNTIME_DIR"))
        return try deployments.map { deployment in
            var app = InstalledFlatpakApp(id: deployment.id, installation: deployment.installation,
                                          entry: deployment.desktop.flatMap(DesktopEntry.init), iconFile: deployment.iconFile,
                                          reach: try picturesReach(of: deployment.id).reach)
            if let record = registered[deployment.id], FlatpakPicturesFolder.limits(record.readWrite) {
                // Read as Flatpak will read them at the app's next start, photolibd's lines included.
                let current: KeyFileText?
                let layers: [[String]]
                do {
                    current = try files.userOverride(of: deployment.id)
                    layers = [deployment.metadata, try files.systemOverride(of: deployment.id), current]
                        .map { $0?.list("filesystems", in: PicturesOverride.group) ?? [] }
                } catch let error as SystemCallError {
                    throw PhotoLibError.flatpakOverrideFailed(deployment.id, path: files.userOverridesDirectory, errno: error.errno)
                }
                let effective = FlatpakFilesystems(layers: layers).reach(pictures: views.pictures.pictures ?? "Pictures", home: views.home)
                app.undone = PicturesOverride.undone(effective: effective, persistent: current?.list("persistent", in: PicturesOverride.group) ?? [],
                                                     pictures: views.pictures.pictures ?? "Pictures")
                app.copyBytes = copyBytes(of: record)
                let changed = PathInspection.status(files.userOverridesDirectory + "/" + deployment.id.rawValue)?.modificationTime
                if let started = running[deployment.id], let changed, started < changed { app.runsWithOldPermissions = true }
            }
            return (app, registered[deployment.id] != nil, running[deployment.id] != nil)
        }
    }

    /// The bytes an app's Pictures folder holds where its filesystem cannot clone (its entries are then
    /// copies); nil where it clones (they share the originals' blocks) or when the folder cannot be read.
    func copyBytes(of app: AppRecord) -> Int64? {
        guard app.heldLayout != .empty, !views.isMirrored(app), let view = try? views.openView(app) else { return nil }
        guard case .unsupported = (try? FileClone.probe(in: view.root)) ?? .supported else { return nil }
        guard let entries = try? Directory.list(view.root) else { return nil }
        var total: Int64 = 0
        for entry in entries where entry.kind == .regular || entry.kind == .unknown {
            if let status = try? Directory.status(of: entry.name, in: view.root), status.kind == .regular, status.linkCount == 1 { total += status.size }
        }
        return total
    }

    /// Whether an installed Flatpak app has this ID (so `authorize` may register it on the way); an
    /// installation that cannot be read is an error, not "not installed".
    func isInstalledFlatpak(_ id: AppID) throws -> Bool {
        do {
            return try flatpakFiles.metadata(of: id) != nil
        } catch {
            throw PhotoLibError.flatpakOverrideFailed(id, path: flatpakFiles.userDirectory + "/app/" + id.rawValue, errno: error.errno)
        }
    }
}
