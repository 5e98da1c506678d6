/// One app and the view policy its authorization and selection give it.
///
/// The view maintainer (which links), the change journal (which tells the
/// app) and `list` all ask `policy` (PhotoLibCore's `ViewPolicy`), so what an
/// app is told always matches its directory.
public struct AppViewContext {
    public var app: AppRecord
    public var policy: ViewPolicy
    /// How each member appears (for an app without location: as a copy, or
    /// withheld); every member as the original when not set.
    public var appearance: (LocatedMember) -> MemberAppearance = { _ in .original }

    public init(app: AppRecord, selectedAssets: Set<Int64>, selectedAlbums: Set<AlbumTree.ID>, selectedRules: [CaptureRule] = []) {
        self.app = app
        policy = ViewPolicy(layout: app.layout, selectedAssets: selectedAssets, selectedAlbums: selectedAlbums, selectedRules: selectedRules,
                            ids: app.assetIDs)
    }

    /// The same, its members appearing as the location checks say.
    public init(app: AppRecord, selectedAssets: Set<Int64>, selectedAlbums: Set<AlbumTree.ID>, selectedRules: [CaptureRule] = [],
         appearance: @escaping (LocatedMember) -> MemberAppearance) {
        self.init(app: app, selectedAssets: selectedAssets, selectedAlbums: selectedAlbums, selectedRules: selectedRules)
        if app.location == .none { self.appearance = appearance }
    }

    /// The app with what it is granted (`policy`, read by `StoreTransaction.viewPolicy`), its members appearing
    /// as `appearance` says when it may not see locations.
    public init(app: AppRecord, policy: ViewPolicy, appearance: @escaping (LocatedMember) -> MemberAppearance) {
        self.app = app
        self.policy = policy
        if app.location == .none { self.appearance = appearance }
    }

    public var layout: ViewLayout { app.layout }
    public var selectedAlbums: Set<AlbumTree.ID> { policy.selectedAlbums }

    /// The asset as the app sees it, or nil when it is not in the view.
    public func viewAsset(_ asset: LocatedAsset?) -> ViewAsset? {
        policy.viewAsset(asset, appearance: appearance)
    }

    /// What a selection edit changed in this app's view: each asset the edit
    /// touched, as it appeared before (`self`) against after (`after`).
    public func changes(to after: AppViewContext, touching assets: [LocatedAsset]) -> ChangeDetails {
        var coalescer = ChangeCoalescer()
        for asset in assets {
            coalescer.add(id: asset.id.rawValue, old: viewAsset(asset), new: after.viewAsset(asset))
        }
        return coalescer.details
    }
}

extension ViewPolicy {
    /// The assets among `assets` that `after` grants and `self` did not, each once,
    /// in order: what a person newly added (iOS 15's "newly selected").
    public func newlyGranted(by after: ViewPolicy, among assets: [LocatedAsset]) -> [AssetID] {
        var seen = Set<AssetID>()
        return assets.filter { !isGranted($0) && after.isGranted($0) && seen.insert($0.id).inserted }.map(\.id)
    }
}
