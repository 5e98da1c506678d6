/// A selection edit, decided before anything is written: from what the person named, the app's
/// grants as the transaction read them and the assets of the albums named, which rows the store
/// writes, what the app's view gains or loses, what its change log says and what the settle does.
///
/// Pure: the engine's commit reads the rows, asks `decide`, and writes what it says; a change
/// composed of several (a request answered, grants that end) composes their plans.
public struct SelectionPlan: Sendable, Equatable {
    /// What the person asked of one app's selection.
    public struct Edit: Sendable, Equatable {
        public var app: AppRecord
        /// Assets named one by one, as the index holds them.
        public var assets: [AssetRecord]
        /// Albums granted (or taken back) whole: their grants are live.
        public var albums: [AlbumTree.ID]
        /// Added to the selection, or (false) removed from it.
        public var adding: Bool
        /// When what is added is granted until (nil: it lasts). It replaces the end of what was
        /// selected already: the latest edit decides.
        public var endsAt: Int64?

        public init(app: AppRecord, assets: [AssetRecord], albums: [AlbumTree.ID], adding: Bool, endsAt: Int64? = nil) {
            self.app = app
            self.assets = assets
            self.albums = albums
            self.adding = adding
            self.endsAt = endsAt
        }
    }

    public let edit: Edit
    /// The rows of the assets named, each once, in the order named: every one is written (a new
    /// grant, or its end replaced) when adding, deleted when removing.
    public let assetRows: [Int64]
    /// The albums named, each once, in the order named.
    public let albums: [AlbumTree.ID]
    /// The assets named that join (or leave) the selection; the rest were (or were not) in it.
    public let changedAssets: [AssetRecord]
    /// The albums named that join (or leave) it.
    public let changedAlbums: [AlbumTree.ID]
    /// What the app is granted as a limited app, before the edit and after it.
    public let before: ViewPolicy
    public let after: ViewPolicy
    /// Every asset whose grant the edit changes, located, each once: the view's entries to link or
    /// unlink, and what the app's change log is told of.
    public let touched: [LocatedAsset]
    /// Assets granted after the edit and not before (iOS 15's "newly selected"); none when removing.
    public let added: [AssetID]

    /// Decides the edit.
    /// - Parameters:
    ///   - grants: the app's grants as they stand, read as a limited app's (`StoreTransaction.viewPolicy(of:as:)`).
    ///   - inAlbumsNamed: the assets in or below the albums named (nothing when none is).
    ///   - tree: the album tree, to locate assets.
    public static func decide(_ edit: Edit, grants before: ViewPolicy, inAlbumsNamed: [AssetRecord], tree: AlbumTree) -> SelectionPlan {
        var seenRows = Set<Int64>()
        let named = edit.assets.filter { seenRows.insert($0.rowID).inserted }
        var seenAlbums = Set<AlbumTree.ID>()
        let albums = edit.albums.filter { seenAlbums.insert($0).inserted }
        let changedAssets = named.filter { before.selectedAssets.contains($0.rowID) != edit.adding }
        let changedAlbums = albums.filter { before.selectedAlbums.contains($0) != edit.adding }
        var after = before
        if edit.adding {
            after.selectedAssets.formUnion(changedAssets.map(\.rowID))
            after.selectedAlbums.formUnion(changedAlbums)
        } else {
            after.selectedAssets.subtract(changedAssets.map(\.rowID))
            after.selectedAlbums.subtract(changedAlbums)
        }
        let changedAlbumSet = Set(changedAlbums)
        var touchedRows = Set<Int64>()
        let touched = (changedAssets.compactMap { LocatedAsset($0, in: tree) }
            + inAlbumsNamed.compactMap { LocatedAsset($0, in: tree) }.filter { $0.ancestry.contains(where: changedAlbumSet.contains) })
            .filter { touchedRows.insert($0.rowID).inserted }
        let added = edit.adding ? before.newlyGranted(by: after, among: touched) : []
        return SelectionPlan(edit: edit, assetRows: named.map(\.rowID), albums: albums, changedAssets: changedAssets,
                             changedAlbums: changedAlbums, before: before, after: after, touched: touched, added: added)
    }

    /// The assets that joined or left, as the app knows them (its own IDs): what its selection event lists.
    public var shownChangedAssets: [String] {
        changedAssets.map { edit.app.assetIDs.id(for: $0.id).rawValue }
    }

    /// The assets newly granted, as the app knows them: what the answer to its review request lists.
    public var shownAdded: [String] {
        added.map { edit.app.assetIDs.id(for: $0).rawValue }
    }

    /// The view changes a limited app's view is brought up to date by, entry by entry: an asset
    /// taken back is unlinked where it was; one added is linked as if it had just arrived.
    /// Nothing for an app whose view the selection does not shape.
    public var viewChanges: [ViewChange] {
        guard edit.app.layout == .limited else { return [] }
        return touched.map { edit.adding ? .asset(old: nil, new: $0) : .asset(old: $0, new: $0) }
    }

    /// What the settle does: a removal may leave copies without location no view needs; an end set
    /// wakes the alarm of timed grants.
    public var acts: SettleActs {
        SettleActs(derivatives: edit.adding ? .untouched : .members(touched.flatMap { $0.members.map(\.rowID) }),
                   kinds: edit.adding && edit.endsAt != nil ? .grantAlarm : [])
    }
}
