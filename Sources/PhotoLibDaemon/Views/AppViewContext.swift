import PhotoLibCore
import PhotoLibStore

/// One app and the view policy its authorization and selection give it.
///
/// The view maintainer (which links), the change journal (which tells the
/// app) and `list` all ask `policy` (PhotoLibCore's `ViewPolicy`), so what an
/// app is told always matches its directory.
struct AppViewContext {
    var app: AppRecord
    var policy: ViewPolicy

    init(app: AppRecord, selectedAssets: Set<Int64>, selectedAlbums: Set<AlbumTree.ID>) {
        self.app = app
        policy = ViewPolicy(layout: app.layout, selectedAssets: selectedAssets, selectedAlbums: selectedAlbums)
    }

    var layout: ViewLayout { app.layout }
    var selectedAlbums: Set<AlbumTree.ID> { policy.selectedAlbums }

    /// The asset as the app sees it, or nil when it is not in the view.
    func viewAsset(_ asset: LocatedAsset?) -> ViewAsset? {
        policy.viewAsset(asset)
    }
}
