public import PhotoLibCore
public import PhotoLibProtocol

extension SetupFacts {
    /// The Flatpak apps photolibd limits, from `apps` and `apps.installed`.
    public static func flatpakApps(apps: AppsResult, installed: InstalledAppsResult) -> [FlatpakApp] {
        let limiting = Set(apps.apps.filter { $0.flatpak == true && FlatpakPicturesFolder.limits(AuthorizationStatus(rawValue: $0.readWrite) ?? .notDetermined) }.map(\.app))
        return installed.apps.filter { limiting.contains($0.app) }.map {
            FlatpakApp(id: $0.app, name: $0.name, undone: $0.undone, runsWithOldPermissions: $0.runsWithOldPermissions ?? false)
        }
    }
}

extension SetupFacts.Daemon {
    /// What the running daemon says of itself, from its `status`, `apps` and `assets` answers
    /// (the refused and the withheld), as `photolibctl doctor` and the page's Library both ask.
    public init(status: StatusResult, apps: AppsResult, refused: AssetsResult, withheld: AssetsResult) {
        self.init(
            state: status.state, scannedFiles: status.scannedFiles, failedWatches: status.failedWatches,
            apps: apps.apps.map { SetupFacts.App(id: $0.app, uid: $0.uid, view: $0.view) },
            unreadable: status.unreadable ?? [],
            refused: refused.assets.map { ($0.path, $0.refusedBecause ?? $0.refused ?? "") },
            withheld: withheld.assets.map { ($0.path, $0.withheld ?? "") },
            viewMode: status.viewMode, viewModeReason: status.viewModeReason)
        fuseViews = status.fuseViews
        unavailable = status.unavailable.map { ($0.since, $0.reason) }
        copyingFolders = apps.apps.filter { $0.flatpak == true }.compactMap { app in app.entries?.reason.map { (app.app, $0) } }
        copyingViews = apps.apps.filter { $0.flatpak != true }.compactMap { app in app.entries?.reason.map { (app.app, $0) } }
    }
}
