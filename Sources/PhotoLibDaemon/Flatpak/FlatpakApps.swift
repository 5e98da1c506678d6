import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// The owner of installed Flatpak apps whose Pictures folder is their view (SPEC §11): which are
/// installed, what each reaches of the home, and the lines photolibd keeps in each one's user override.
///
/// Its state is on disk (Flatpak's installations and overrides, in the owner's home) and in the store
/// (the record of the lines photolibd added); the engine asks it before a change (may this app be
/// limited?) and after one (bring the override in line with the app's status).
struct FlatpakApps: Sendable {
    let store: Store
    /// Where Flatpak apps' Pictures folders are, in the owner's home.
    let pictures: FlatpakPicturesFolder
    let logger: Logger

    var files: FlatpakFiles { FlatpakFiles(home: pictures.home) }
    private var picturesName: String { pictures.pictures ?? "Pictures" }

    /// Whether an installed Flatpak app has this ID; an installation that cannot be read is an error, not "not installed".
    func isInstalled(_ id: AppID) throws -> Bool {
        let files = files
        do {
            return try files.metadata(of: id) != nil
        } catch {
            throw PhotoLibError.flatpakOverrideFailed(id, path: files.userDirectory + "/app/" + id.rawValue, errno: error.errno)
        }
    }

    /// Refuses to register an app as a Flatpak app that is not installed, saying where it was looked for.
    func checkInstalled(_ id: AppID) throws {
        let files = files
        if try !isInstalled(id) { throw PhotoLibError.flatpakNotInstalled(id, installations: [files.userDirectory, files.systemDirectory]) }
    }

    /// How the app reaches ~/Pictures with the person's own lines, photolibd's taken out.
    func picturesReach(of app: AppID) throws -> (reach: PicturesReach, personsOverride: KeyFileText, recorded: PicturesOverride, grantBack: [String]) {
        let files = files
        do {
            var personal = try files.userOverride(of: app) ?? KeyFileText("")
            let recorded = try store.read { try $0.picturesOverride(app) } ?? PicturesOverride()
            recorded.revert(&personal)
            let group = PicturesOverride.group
            let layers = [try files.metadata(of: app), try files.systemOverride(of: app), personal].map { $0?.list("filesystems", in: group) ?? [] }
            let merged = FlatpakFilesystems(layers: layers)
            let reach = merged.reach(pictures: picturesName, home: pictures.home)
            return (reach, personal, recorded, PicturesOverride.grantBack(broadModes: merged.modes(of: reach.broad)))
        } catch let error as SystemCallError {
            throw PhotoLibError.flatpakOverrideFailed(app, path: files.userOverridesDirectory, errno: error.errno)
        }
    }

    /// Refuses, before anything changes, a status that would limit an app whose grant reaches far more than photos.
    /// `confirmed`: the person confirmed what such an app loses (`PicturesOverride.loss`), now or before.
    func checkCanLimit(_ app: AppRecord, to status: AuthorizationStatus, confirmed: Bool) throws {
        guard app.flatpakPictures, FlatpakPicturesFolder.limits(status) else { return }
        guard pictures.pictures != nil else { throw PhotoLibError.picturesOutsideHome(app.id, home: pictures.home) }
        let (reach, _, recorded, _) = try picturesReach(of: app.id)
        if !reach.broad.isEmpty, !confirmed, !recorded.tookBroad { throw PhotoLibError.flatpakBroadAccess(app.id, grants: reach.broad) }
    }

    /// Puts photolibd's lines into the app's user override when its status limits it, and
    /// takes exactly them out otherwise (`removing`: the app is being removed). The record of
    /// what is added is stored before the file changes, so a crash between the two never leaves
    /// lines photolibd would not know to remove. Takes effect when the app next starts.
    func syncPicturesOverride(_ app: AppRecord, removing: Bool = false, confirmed: Bool = false) throws {
        guard app.flatpakPictures else { return }
        let files = files
        var (reach, file, recorded, grantBack) = try picturesReach(of: app.id)
        var record = PicturesOverride()
        if !removing, FlatpakPicturesFolder.limits(app.readWrite) {
            // A broad grant is taken only as the person confirmed (`checkCanLimit`); a confirmation holds while the app stays limited.
            record = PicturesOverride.apply(
                PicturesOverride.wanted(reach: reach, pictures: picturesName, takeBroad: confirmed || recorded.tookBroad, grantBack: grantBack),
                to: &file)
        }
        // Written again when the file is not what it should be, whatever the record says: the person's
        // own 'flatpak override' may have rewritten it without photolibd's lines.
        // Read a moment ago by `picturesReach`, which throws what fails; here only compared.
        let onDisk = try? files.userOverride(of: app.id)
        guard record != recorded || (onDisk ?? KeyFileText("")).text != file.text else { return }
        let merged = PicturesOverride(edits: recorded.edits + record.edits)
        try store.write { try $0.setPicturesOverride(app.id, merged) }
        do {
            try files.writeUserOverride(of: app.id, file)
        } catch {
            throw PhotoLibError.flatpakOverrideFailed(app.id, path: files.userOverridesDirectory + "/" + app.id.rawValue, errno: error.errno)
        }
        try store.write { try $0.setPicturesOverride(app.id, record) }
        logger.notice(record.edits.isEmpty
            ? "Took photolibd's lines out of the Flatpak override of \(app.id): it reads its Pictures folder through its own permission from its next start."
            : "The Flatpak override of \(app.id) now makes its Pictures folder its view, from its next start.")
    }

    /// The installed Flatpak apps, by name and icon, with what each reaches of the Pictures folder
    /// (the person's override lines counted, photolibd's not), and whether each is registered and running.
    /// `copyBytes`: what a registered app's Pictures folder holds in copies (the views' to tell).
    func installed(copyBytes: (AppRecord) -> Int64?) throws -> [(app: InstalledFlatpakApp, registered: Bool, running: Bool)] {
        let files = files
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
                let effective = FlatpakFilesystems(layers: layers).reach(pictures: picturesName, home: pictures.home)
                app.undone = PicturesOverride.undone(effective: effective, persistent: current?.list("persistent", in: PicturesOverride.group) ?? [],
                                                     pictures: picturesName)
                app.copyBytes = copyBytes(record)
                let changed = PathInspection.status(files.userOverridesDirectory + "/" + deployment.id.rawValue)?.modificationTime
                if let started = running[deployment.id], let changed, started < changed { app.runsWithOldPermissions = true }
            }
            return (app, registered[deployment.id] != nil, running[deployment.id] != nil)
        }
    }
}
