/// An app's timed grants that have ended, decided on what the index can still name: the photos and
/// albums it names leave the app's selection as a selection edit does (their links go, the app hears
/// `expired`); those it cannot name any more (gone meanwhile) only lose their grant, for nothing of
/// them is in a view; each timed status returns to what it was.
public struct GrantEndPlan: Sendable, Equatable {
    /// Selected assets the index names: removed by a selection edit.
    public var assets: [AssetRecord] = []
    /// Albums still in the tree: removed by a selection edit.
    public var albums: [AlbumTree.ID] = []
    /// Grants of assets and albums the index no longer names: only the grant is deleted.
    public var unnamedAssetRows: [Int64] = []
    public var unnamedAlbums: [AlbumTree.ID] = []
    /// The statuses that return, each as an authorization with the reason `expired`.
    public var statuses: [AuthorizationPlan.Change] = []

    /// - Parameters:
    ///   - ended: the app's grants that are due (`ExpiringGrant.due`).
    ///   - records: the asset rows of those grants as the index holds them (a row missing: gone).
    public static func decide(_ ended: [ExpiringGrant], records: [Int64: AssetRecord], tree: AlbumTree) -> GrantEndPlan {
        var plan = GrantEndPlan()
        for grant in ended {
            switch grant.kind {
            case .asset(let row):
                if let record = records[row] { plan.assets.append(record) } else { plan.unnamedAssetRows.append(row) }
            case .album(let album):
                if tree.path(of: album) != nil { plan.albums.append(album) } else { plan.unnamedAlbums.append(album) }
            case .authorization(let level, let returnsTo):
                plan.statuses.append(AuthorizationPlan.Change(level: level, status: returnsTo, reason: "expired"))
            }
        }
        return plan
    }

    /// Whether a selection edit removes anything the index names.
    public var removesNamed: Bool { !assets.isEmpty || !albums.isEmpty }
}
