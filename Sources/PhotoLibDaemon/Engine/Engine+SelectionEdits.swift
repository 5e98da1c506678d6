import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// Selection edits, in the parts a change is made of: the probe before the transaction (the app,
/// its view as it is, the copies without location the edit will need), the commit inside it, and
/// what the settle does after. `editSelection` is one edit on its own; a change composed of several
/// (a request answered, grants that end) commits their parts in one transaction and settles once.
extension Engine {
    /// What a selection edit changed.
    struct SelectionEditOutcome {
        /// Assets named one by one that joined (or left) the selection.
        var assets: [AssetID]
        var albums: [RelativePath]
        /// Named assets whose originals are refused (the edit stands; they show once fixed).
        var refused: [AssetRecord]
        /// Assets the app was not given before and is now, by name or by album (iOS 15's
        /// "newly selected"); empty when removing.
        var added: [AssetID]
        /// The review request this edit answered, if any.
        var settled: [RequestSettlement]
    }

    /// Adds to (or, with `adding: false`, removes from) an app's selection; returns what changed.
    /// With `answering`, the edit is the person's answer to that review request.
    /// With `endsAt`, what is added is granted until then; `reason` is
    /// `expired` when the edit is the removal of grants that ended.
    func editSelection(
        _ id: AppID, _ named: NamedItems, adding: Bool, by: EventActor, answering: AccessRequest? = nil,
        endsAt: Int64? = nil, reason: String? = nil
    ) throws -> SelectionEditOutcome {
        let edit = try index.resolve(named)
        let probe = try probe(edit, of: id, adding: adding)
        let done = try store.write { tx in
            try grants.commit(probe, by: by, answering: answering, endsAt: endsAt, reason: reason, tree: index.albums,
                              viewAfter: { viewAfter($0, $1) }, tx: tx)
        }
        try settle(try settling(probe, done))
        let changedAlbumPaths = done.plan.changedAlbums.compactMap { index.albums.path(of: $0) }
        logger.info("Selection of \(id) \(adding ? "gained" : "lost") \(done.plan.changedAssets.count) assets and \(changedAlbumPaths.count) albums.")
        // Named assets whose originals are refused: the edit stands (it shows once
        // the file is fixed), and the person hears why it is not in the view.
        let refused = adding ? try index.refused(edit.assets) : []
        return SelectionEditOutcome(assets: done.plan.changedAssets.map(\.id), albums: changedAlbumPaths, refused: refused, added: done.plan.added,
                                    settled: done.settled)
    }

    /// Before the transaction: the app, its view as it is, and the copies without location of what
    /// the edit grants, made now so the transaction finds their checks current and looks at nothing.
    func probe(_ edit: SelectionEdit, of id: AppID, adding: Bool) throws -> SelectionEditProbe {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        let before = try appContexts(only: id).first
        if adding, app.location == .none, app.layout == .limited {
            for located in try index.located(edit) { views.prepareWithoutLocation(located) }
        }
        return SelectionEditProbe(app: app, edit: edit, adding: adding, before: before)
    }

    /// The app's view as a selection plan leaves it, for the events that say what it gained or lost: the
    /// views decide how each member appears, and which copies without location it takes.
    func viewAfter(_ app: AppRecord, _ plan: SelectionPlan) -> AppViewContext {
        let after = AppViewContext(app: app, policy: plan.after, appearance: views.appearance(for: app))
        if plan.edit.adding { views.decideWithoutLocation(plan.touched, for: [after]) }
        return after
    }

    /// What the settle of a selection edit on its own does: the plan's acts, and a limited app's
    /// view's entries linked or unlinked one by one.
    func settling(_ probe: SelectionEditProbe, _ done: SelectionEditCommit) throws -> ChangeSet {
        var settling = ChangeSet(acts: done.plan.acts, events: done.published)
        settling.answer(done.settled, purpose: probe.app.purpose)
        if probe.app.layout == .limited {
            settling.incremental = (done.plan.viewChanges, try appContexts(only: probe.app.id))
        }
        return settling
    }
}
