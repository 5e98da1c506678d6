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
    /// How each member appears (for an app without location: as a copy, or
    /// withheld); every member as the original when not set.
    var appearance: (LocatedMember) -> MemberAppearance = { _ in .original }

    init(app: AppRecord, selectedAssets: Set<Int64>, selectedAlbums: Set<AlbumTree.ID>, selectedRules: [CaptureRule] = []) {
        self.app = app
        policy = ViewPolicy(layout: app.layout, selectedAssets: selectedAssets, selectedAlbums: selectedAlbums, selectedRules: selectedRules,
                            ids: app.assetIDs)
    }

    /// The same, its members appearing as the location checks say.
    init(app: AppRecord, selectedAssets: Set<Int64>, selectedAlbums: Set<AlbumTree.ID>, selectedRules: [CaptureRule] = [],
         appearance: @escaping (LocatedMember) -> MemberAppearance) {
        self.init(app: app, selectedAssets: selectedAssets, selectedAlbums: selectedAlbums, selectedRules: selectedRules)
        if app.location == .none { self.appearance = appearance }
    }

    var layout: ViewLayout { app.layout }
    var selectedAlbums: Set<AlbumTree.ID> { policy.selectedAlbums }

    /// The asset as the app sees it, or nil when it is not in the view.
    func viewAsset(_ asset: LocatedAsset?) -> ViewAsset? {
        policy.viewAsset(asset, appearance: appearance)
    }
}
