import Glibc
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// A pending request that has just been decided, and what its app hears.
struct RequestSettlement: Sendable {
    let request: AccessRequest
    let outcome: RequestOutcome

    /// Answered, or cancelled: what the `request` event says of it.
    var state: RequestState { outcome.requestState == .cancelled ? .cancelled : .answered }
}

extension RequestSettlement {
    /// A request an authorization's plan settled, as its app hears it.
    init(_ settled: AuthorizationPlan.Settled, of app: AppRecord) {
        self.init(request: settled.request, outcome: RequestOutcome(
            app: app.id, kind: settled.request.kind, request: settled.request.id, state: .answered, answer: settled.answer,
            status: settled.status, addedAssets: settled.addedAssets))
    }
}

/// Apps asking the person, and the person answering (SPEC §5, §6). The rules
/// are `RequestPolicy`'s; this carries them out in the store, the views and
/// the events, and hands each answer to the connections waiting for it.
extension Engine {
    /// An app's request: answered at once when its status is decided, else
    /// stored (or joined, when one of its kind is pending). With `waiter`, the
    /// answer is handed to it when the person decides; it is registered here,
    /// on the actor, so no answer can slip in between.
    func ask(_ app: AppID, kind: RequestKind, waiter: RequestAnswers.Waiter?) throws -> RequestOutcome {
        let asked = try store.write { tx in try requests.ask(app, kind: kind, now: clock.now(), tx: tx) }
        if let made = asked.made {
            try settle(try requests.settling(made, journal: journal))
            logger.notice("App \(app) asks \(made.request.kind.described) (request \(made.request.id)); answer with 'photolibctl answer \(made.request.id) …'.")
        }
        if let waiter, let request = asked.outcome.request, asked.outcome.requestState == .pending {
            try requests.answers.wait(for: request, waiter)
        }
        return asked.outcome
    }

    /// The person's answer to a pending request: authorizes, selects, or
    /// (with `cancel`) withdraws it; returns what the app hears.
    func answer(_ requestID: Int64, with answer: RequestAnswer, _ named: NamedItems, by: EventActor,
                reason: CancelReason? = nil) throws -> RequestOutcome {
        guard let request = try store.read({ try $0.request(id: requestID) }) else { throw PhotoLibError.unknownRequest(requestID) }
        let effect = try RequestPolicy.effect(of: answer, to: request.kind, namesItems: !named.isEmpty)
        if answer == .cancel { return try cancel(request, by: by, reason: reason) }
        let selects = effect.selects && (!named.isEmpty || effect.authorize == nil)
        let settled: [RequestSettlement]
        switch (selects, effect.authorize) {
        case (true, nil):
            // A review, answered by the selection edit itself.
            settled = try editSelection(request.app, named, adding: true, by: by, answering: request).settled
        case (false, let (level, status)?):
            settled = try authorize(request.app, access: level, status: status, by: by,
                                    answering: AuthorizationPlan.Answering(request: request, answer: answer)).settled
        case (true, let (level, status)?):
            settled = try selectAndAuthorize(request, answer: answer, named, level: level, status: status, by: by)
        case (false, nil):
            settled = []
        }
        guard let own = settled.first(where: { $0.request.id == request.id }) else {
            throw PhotoLibError.unknownRequest(requestID)  // answered meanwhile by another edit
        }
        return own.outcome
    }

    /// An authorization answered `limited` with photos: the selection and the status change in one
    /// transaction (the selection first, so the view is right the moment the app becomes limited,
    /// and the app hears which photos it was newly given), settled once.
    private func selectAndAuthorize(_ request: AccessRequest, answer: RequestAnswer, _ named: NamedItems,
                                    level: AccessLevel, status: AuthorizationStatus, by: EventActor) throws -> [RequestSettlement] {
        let id = request.app
        let edit = try index.resolve(named)
        if level == .readWrite, let app = try store.read({ try $0.app(id) }) { try flatpak.checkCanLimit(app, to: status, confirmed: false) }
        let probe = try probe(edit, of: id, adding: true)
        let (selected, authorized) = try store.write { tx in
            let selected = try grants.commit(probe, by: by, tree: index.albums, viewAfter: { viewAfter($0, $1) }, tx: tx)
            let change = AuthorizationChange(app: id, by: by, change: AuthorizationPlan.Change(
                level: level, status: status, answering: AuthorizationPlan.Answering(request: request, answer: answer),
                addedAssets: selected.plan.shownAdded))
            return (selected, try grants.commit(change, tx: tx))
        }
        var changes = ChangeSet(acts: selected.plan.acts.merged(with: authorized.plan.acts), events: selected.published + authorized.published)
        changes.answer(selected.settled + authorized.settled, purpose: authorized.plan.after.purpose)
        try settle(changes)
        logAuthorization(authorized.plan)
        logger.info("Selection of \(id) gained \(selected.plan.changedAssets.count) assets and \(selected.plan.changedAlbums.count) albums.")
        return selected.settled + authorized.settled
    }

    /// Withdraws a request without deciding: the status stays as it is, and
    /// the app hears that its request was cancelled.
    private func cancel(_ request: AccessRequest, by: EventActor, reason: CancelReason?) throws -> RequestOutcome {
        let changes = try store.write { tx in try requests.cancel(request, by: by, reason: reason, journal: journal, tx: tx) }
        try settle(changes)
        logger.notice("Request \(request.id) of \(request.app) was cancelled\(reason == .pageClosed ? ": the page showing it was closed" : "").")
        guard let outcome = changes.answers.first?.settlement.outcome else { throw PhotoLibError.unknownRequest(request.id) }
        return outcome
    }
}
