import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// Grants that end (SPEC §9): the photos and albums leave the selection, each status returns to what it
/// was, all of an app's due grants in one transaction.
extension AppGrants {
    /// What the end of an app's grants did.
    struct EndCommit {
        /// The named photos and albums that left the selection; nil when every ended grant was of
        /// something the index no longer names (only those grants were deleted).
        var deselected: SelectionEditCommit?
        /// Each status returned.
        var authorized: [AuthorizationCommit]
    }

    /// Which of an app's due grants name something the index holds, and what each ends (`GrantEndPlan`). Reads only.
    func planEnd(_ grants: [ExpiringGrant], tree: AlbumTree, tx: StoreTransaction) throws -> GrantEndPlan {
        let rows = grants.compactMap { grant -> Int64? in if case .asset(let row) = grant.kind { row } else { nil } }
        let records = try rows.compactMap { try tx.asset(rowID: $0) }
        return GrantEndPlan.decide(grants, records: Dictionary(records.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first }),
                                   tree: tree)
    }

    /// Writes an end: the grants of what the index no longer names are deleted, the named leave the
    /// selection (`selection` is that edit, probed; nil when the plan removes none), and each status
    /// returns; every event says `expired`.
    func commitEnd(_ plan: GrantEndPlan, of app: AppID, selection: SelectionEditProbe?, by: EventActor, tree: AlbumTree,
                   viewAfter: (AppRecord, SelectionPlan) -> AppViewContext, tx: StoreTransaction) throws -> EndCommit {
        _ = try tx.deselectAssets(app, rowIDs: plan.unnamedAssetRows)
        _ = try tx.deselectAlbums(app, albums: plan.unnamedAlbums)
        let deselected = try selection.map { selection in
            try commit(selection, by: by, reason: "expired", tree: tree, viewAfter: viewAfter, tx: tx)
        }
        let authorized = try plan.statuses.map { status in
            try commit(AuthorizationChange(app: app, by: by, change: status), tx: tx)
        }
        return EndCommit(deselected: deselected, authorized: authorized)
    }
}
