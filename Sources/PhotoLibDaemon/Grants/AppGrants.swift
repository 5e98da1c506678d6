import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// The owner of what each app is granted (SPEC §4, §9): its selection, photos and albums, for good or
/// until a time, its rule grants (every asset taken in a span, live), and its status for each access
/// level, with the requests a change answers.
///
/// Its state is in the store. It plans a change (`SelectionPlan`, `RulePlan`, `AuthorizationPlan`) and writes it,
/// with its journal entries, inside a transaction the engine opens, and says what it did; a change
/// composed of several (a request answered with photos, grants that end) commits them in one
/// transaction and the engine settles once. No system call: the write lock is held.
struct AppGrants {
    let journal: ChangeJournal

    /// Reads the app's grants, plans the selection edit and writes it. `viewAfter` gives the app's view
    /// as the plan leaves it (the views decide how each member appears), for the event that says what
    /// the view gained or lost.
    func commit(_ probe: SelectionEditProbe, by: EventActor, answering: AccessRequest? = nil, endsAt: Int64? = nil, reason: String? = nil,
                tree: AlbumTree, viewAfter: (AppRecord, SelectionPlan) -> AppViewContext, tx: StoreTransaction) throws -> SelectionEditCommit {
        let (app, edit, id) = (probe.app, probe.edit, probe.app.id)
        let inAlbums = edit.albums.isEmpty ? [] : try tx.assets(inAlbums: edit.albums.flatMap { tree.subtree(of: $0) })
        let plan = SelectionPlan.decide(SelectionPlan.Edit(app: app, assets: edit.assets, albums: edit.albums, adding: probe.adding, endsAt: endsAt),
                                        grants: try tx.viewPolicy(of: app, as: .limited), inAlbumsNamed: inAlbums, tree: tree)
        if plan.edit.adding {
            _ = try tx.selectAssets(id, rowIDs: plan.assetRows, endsAt: endsAt)
            _ = try tx.selectAlbums(id, albums: plan.albums, endsAt: endsAt)
        } else {
            _ = try tx.deselectAssets(id, rowIDs: plan.assetRows)
            _ = try tx.deselectAlbums(id, albums: plan.albums)
        }
        var settled: [RequestSettlement] = []
        if let answering {
            guard try tx.request(id: answering.id) != nil else { throw PhotoLibError.unknownRequest(answering.id) }
            try tx.deleteRequest(answering.id)
            settled.append(RequestSettlement(request: answering, outcome: RequestOutcome(
                app: id, kind: answering.kind, request: answering.id, state: .answered, answer: RequestAnswer.limited.rawValue,
                status: app.readWrite, addedAssets: plan.shownAdded)))
        }
        var published = [try journal.recordSelection(
            id, addedAssets: plan.edit.adding ? plan.shownChangedAssets : [], removedAssets: plan.edit.adding ? [] : plan.shownChangedAssets,
            addedAlbums: plan.edit.adding ? plan.changedAlbums.count : 0, removedAlbums: plan.edit.adding ? 0 : plan.changedAlbums.count, by: by,
            request: answering.map { ($0.id, .answered) }, reason: reason, endsAt: plan.edit.adding ? endsAt : nil, tx: tx)]
        // What the view gained or lost: visibility before the edit against after it.
        if app.layout == .limited, let before = probe.before {
            let details = before.changes(to: viewAfter(app, plan), touching: plan.touched)
            if !details.isEmpty { published.append(try journal.recordChange(id, details, reason: reason, tx: tx)) }
        }
        return SelectionEditCommit(plan: plan, settled: settled, published: published)
    }

    /// Reads the app and its requests, plans the status change, and writes it.
    func commit(_ change: AuthorizationChange, tx: StoreTransaction) throws -> AuthorizationCommit {
        let (id, level) = (change.app, change.change.level)
        guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
        let plan = AuthorizationPlan.decide(change.change, app: before, pendingReturn: try tx.authorizationEnd(id, access: level)?.returnsTo,
                                            requests: try tx.requests(app: id))
        try tx.setAuthorization(id, access: level, status: plan.change.status, endsAt: plan.change.endsAt, returnsTo: plan.returnsTo)
        for settled in plan.settled { try tx.deleteRequest(settled.request.id) }
        // The event names the request it answers, so a client that asked knows this is its answer.
        var published = [try journal.recordAuthorization(
            id, access: level, status: plan.change.status, by: change.by, request: plan.namedRequest.map { ($0, .answered) },
            reason: plan.change.reason, endsAt: plan.change.endsAt, tx: tx)]
        if plan.reloads { published.append(try journal.recordReload(id, tx: tx)) }
        return AuthorizationCommit(plan: plan, settled: plan.settled.map { RequestSettlement($0, of: plan.after) }, published: published)
    }

    /// Gives `app` every asset (of `mediaType`) taken in `from..<to`, live; the same span and type again is
    /// the rule already there, and nothing is written. A new rule has the app told to reload.
    func addRule(_ app: AppRecord, from: Int64, to: Int64, mediaType: MediaType?, tx: StoreTransaction) throws
        -> (rule: CaptureRule, plan: RulePlan.Addition, published: [PublishedEvent]) {
        let plan = RulePlan.add(from: from, to: to, mediaType: mediaType, app: app, rules: try tx.selectedRules(app.id))
        let published = plan.reloads ? [try journal.recordReload(app.id, tx: tx)] : []
        if let existing = plan.existing { return (existing, plan, published) }
        return (try tx.insertRule(app.id, from: from, to: to, mediaType: mediaType).rule, plan, published)
    }

    /// Takes back `app`'s rules `ids` (all of them when nil); a removal has the app told to reload.
    func removeRules(_ app: AppRecord, ids: [Int64]?, tx: StoreTransaction) throws -> (plan: RulePlan.Removal, published: [PublishedEvent]) {
        let plan = RulePlan.remove(ids: ids, app: app, rules: try tx.selectedRules(app.id))
        _ = try tx.deleteRules(app.id, ids: plan.removed.map(\.id))
        return (plan, plan.reloads ? [try journal.recordReload(app.id, tx: tx)] : [])
    }
}

/// A selection edit as resolved references.
struct SelectionEdit {
    var assets: [AssetRecord]
    var albums: [AlbumTree.ID]
}

/// A selection edit, probed before its transaction: what it changes, for which app, and the app's view before it.
struct SelectionEditProbe {
    var app: AppRecord
    var edit: SelectionEdit
    var adding: Bool
    var before: AppViewContext?
}

/// What a selection edit's commit did: its plan, the request it answered, its events.
struct SelectionEditCommit {
    var plan: SelectionPlan
    var settled: [RequestSettlement]
    var published: [PublishedEvent]
}

/// A status to set for an app, and who sets it: what a composed change (a request answered, a
/// grant's end) commits in its own transaction.
struct AuthorizationChange {
    var app: AppID
    var by: EventActor
    var change: AuthorizationPlan.Change
}

/// What an authorization's commit did: its plan, the requests it decided, its events.
struct AuthorizationCommit {
    var plan: AuthorizationPlan
    var settled: [RequestSettlement]
    var published: [PublishedEvent]
}
