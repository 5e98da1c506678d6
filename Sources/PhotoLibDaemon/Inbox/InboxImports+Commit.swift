import PhotoLibCore
import PhotoLibStore

// Step 4 of an import, inside the transaction that indexes the placed copy: what the import changes
// besides the index (a limited app's selection, the import's row) and what the apps hear of it.
extension InboxImports {
    /// What an import's commit wrote and is to tell.
    struct Commit {
        /// In the order the apps hear them: the app's view gaining a photo the index already had, what
        /// the arrival changed in the library, then the import itself.
        var published: [PublishedEvent] = []
        /// The asset that joined the app's selection though the index saw nothing new (placed by an
        /// import a stop interrupted, and indexed by the start's scan): its view follows it as for a
        /// selection edit.
        var joinedUnchanged: LocatedAsset?
    }

    /// Plans and writes what the import of the copy placed as `name` in `albumPath` does once the
    /// index's batch (`recorder`, `albums`) has taken it in: under `right` it joins the app's selection,
    /// the row of import `id` says how it ended, and the events are recorded. `contexts` (every app's
    /// view) gains the selection; `decideWithoutLocation` is the views' choice of how an asset appears
    /// to an app without location. No system call: the write lock is held.
    func commit(_ id: Int64, of app: AppRecord, name: FileName, in albumPath: RelativePath, source: FileName, right: InboxPolicy.Right,
                recorder: ChangeRecorder, albums: AlbumTree, contexts: inout [AppViewContext],
                decideWithoutLocation: ([LocatedAsset], [AppViewContext]) -> Void, tx: StoreTransaction) throws -> Commit {
        var done = Commit()
        let asset = try albums.album(at: albumPath).flatMap { try tx.asset(album: $0, name: name) }
        let plan = ImportPlan.decide(
            right: right, asset: asset, alreadySelected: try asset.map { try tx.isSelected(app.id, asset: $0.rowID) } ?? false,
            indexRecorded: asset.map { asset in recorder.changes.contains { $0.newAsset?.rowID == asset.rowID } } ?? false,
            tree: albums)
        let before = contexts.first { $0.app.id == app.id }
        if let row = plan.selects {
            _ = try tx.selectAssets(app.id, rowIDs: [row])
            for position in contexts.indices where contexts[position].app.id == app.id {
                contexts[position].policy.selectedAssets.insert(row)
            }
        }
        if let located = plan.joinsUnchanged {
            done.joinedUnchanged = located
            decideWithoutLocation([located], contexts)
            if let before, let after = contexts.first(where: { $0.app.id == app.id }) {
                var coalescer = ChangeCoalescer()
                coalescer.add(id: located.id.rawValue, old: before.viewAsset(located), new: after.viewAsset(located))
                if !coalescer.details.isEmpty { done.published.append(try journal.recordChange(app.id, coalescer.details, tx: tx)) }
            }
        }
        decideWithoutLocation(recorder.changes.compactMap(\.newAsset), contexts)
        done.published += try journal.recordLibraryChanges(recorder.changes, overflowed: recorder.overflowed, contexts: contexts,
                                                           albums: albums, tx: tx)
        let seen = plan.tellsAsset ? contexts.first { $0.app.id == app.id }?.viewAsset(asset.flatMap { LocatedAsset($0, in: albums) }) : nil
        try tx.finishImport(id, state: plan.state, asset: asset?.id)
        done.published.append(try journal.recordImport(
            app.id, name: source, state: plan.state, asset: seen,
            assetID: plan.tellsAsset ? asset.map { app.assetIDs.id(for: $0.id) } : nil, tx: tx))
        return done
    }
}
