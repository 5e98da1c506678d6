public import PhotoLibCore
public import PhotoLibProtocol

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
    }
}
