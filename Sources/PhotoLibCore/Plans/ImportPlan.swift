/// The last step of an inbox import, decided once the placed copy is indexed: whether the new asset
/// joins the app's selection, whether the app must hear of it as a change the index did not record
/// (a copy a restart's scan indexed before), how the import ends, and what the app is told.
public struct ImportPlan: Sendable, Equatable {
    /// The asset row that joins the app's selection (a limited app sees what it added).
    public let selects: Int64?
    /// The asset, when it joins a selection it was not in and the index recorded no change for it
    /// (indexed before: the kill of an earlier import came after its copy was placed): the app's
    /// view and its change log follow it as for a selection edit.
    public let joinsUnchanged: LocatedAsset?
    /// How the import ends: `added`, or `accepted` for an add-only app, which never sees the asset.
    public let state: ImportRecord.State
    /// Whether the app is told which asset its file became (not an add-only app).
    public let tellsAsset: Bool

    /// - Parameters:
    ///   - right: what the app may do with its inbox (`InboxPolicy.right`).
    ///   - asset: the placed copy's asset, as the index holds it after the import's batch (nil: not indexed).
    ///   - alreadySelected: the asset is in the app's selection already (one by one).
    ///   - indexRecorded: the import's batch recorded a change with this asset after it.
    public static func decide(right: InboxPolicy.Right, asset: AssetRecord?, alreadySelected: Bool, indexRecorded: Bool,
                              tree: AlbumTree) -> ImportPlan {
        let joins = right == .joinsSelection ? asset : nil
        let unchanged = joins.flatMap { !alreadySelected && !indexRecorded ? LocatedAsset($0, in: tree) : nil }
        return ImportPlan(selects: joins?.rowID, joinsUnchanged: unchanged, state: right == .addOnly ? .accepted : .added,
                          tellsAsset: right != .addOnly)
    }
}
