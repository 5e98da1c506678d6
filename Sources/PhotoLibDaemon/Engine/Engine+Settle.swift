import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// The last step of every change, in one place: once its transaction has
/// committed, links land, the views that need it are reconciled, derivatives
/// no view links are dropped, what the kernel refused is learned, the change's
/// other acts are done (inboxes, view opens, Flatpak overrides, the grant alarm),
/// and the events are published, then the waiting connections answered and the
/// person told of new requests.
extension Engine {
    /// Acts on a committed change. The events are published even when a view
    /// cannot be brought up to date: the journal holds them already, and the
    /// view is repaired by the next reconcile, which the error makes happen.
    func settle(_ set: ChangeSet) throws {
        // A change settled before the start's scan that fails may leave a view short of what its
        // records say, in directories it never touched: the stamps go with it. One that ends well
        // leaves the views in step, and any directory it changed has a new ctime.
        let stamps = stamping.recorded
        stamping.recorded = nil
        // Out of step until this settle ends well: a stop meanwhile records no stamps.
        let wasInStep = stamping.inStep
        stamping.inStep = false
        // A change that came in while a batch was probed, with the last batch's links in flight:
        // those land first, so no view is touched by two hands and the apps hear the batch first.
        if carried.tail != nil { try landTail() }
        defer {
            publish(set)
            if set.mayBringFiles { placesDue.signal() }
        }
        var dirty: Set<AppID> = []
        if let (changes, contexts) = set.incremental { dirty.formUnion(views.apply(changes, to: contexts)) }
        if let flight = set.flight { dirty.formUnion(views.land(flight)) }
        let records: [AppRecord]
        switch set.acts.reconcile {
        case .every:
            records = try store.read { try $0.apps() }
            try updatePassages()
            try views.removeViews(except: Set(records.map(\.viewName)))
        case .apps(let apps):
            if set.acts.kinds.contains(.passages) { try updatePassages() }
            let wanted = apps.union(dirty).sorted { $0.rawValue < $1.rawValue }
            records = wanted.isEmpty ? [] : try store.read { tx in try wanted.compactMap { try tx.app($0) } }
        }
        let reconcile = { [self] in
            for record in records {
                _ = try views.reconcile(record, index: index, store: store, libraryAvailable: lifecycle.libraryAvailable,
                                        trust: set.viewTrust[record.id])
            }
        }
        if case .every = set.acts.reconcile {
            // The open watches are placed on the other core while the views are checked on this one: a directory the
            // check makes is watched through its parent's event, like one made at any other time; a view it makes
            // whole is watched after.
            let (report, watched) = (report, views.watchablePaths(records))
            try Alongside.run({ report.watch(watched, skippingMissing: true) }, while: reconcile)
            syncViewOpens(records)
            views.collectDerivatives(.all)
        } else {
            try reconcile()
        }
        views.collectDerivatives(set.acts.derivatives)
        try recordLearnedRefusals()
        try act(set)
        if case .every = set.acts.reconcile { stamping.inStep = true } else { stamping.inStep = wasInStep }
        stamping.recorded = stamps
    }

    /// What the change leaves to do besides its views (`SettleActs.kinds`), once they are settled.
    private func act(_ set: ChangeSet) throws {
        if set.acts.kinds.contains(.inboxes) { try syncInboxes() }
        if set.acts.kinds.contains(.viewOpens) { syncViewOpens(try store.read { try $0.apps() }) }
        for follow in set.acts.picturesFollow {
            try flatpak.syncPicturesOverride(follow.app, confirmed: follow.confirmed)
            watchPictures([follow.app])
        }
        if set.acts.kinds.contains(.grantAlarm) { expiryAlarm.wake() }
    }

    /// Tells subscribers what the change did, then hands each decided request's connection its answer.
    private func publish(_ set: ChangeSet) {
        var events = set.events
        for answer in set.answers {
            let settlement = answer.settlement
            do {
                events.append(try journal.requestEvent(settlement.request, purpose: answer.purpose, state: settlement.state,
                                                       answer: settlement.outcome.answer))
            } catch {
                // The decision stands; only the prompt's update is lost, and `requests` is right.
                logger.error("Could not encode the request event for request \(settlement.request.id): \(error)")
            }
        }
        hub.publish(events)
        for answer in set.answers {
            let settlement = answer.settlement
            if case .pick = settlement.request.kind {
                cancelPick(settlement.request, reason: answer.reason)
            } else if let request = settlement.outcome.request {
                requests.answers.resolve(request, with: settlement.outcome)
            }
        }
        for (request, purpose) in set.announced { requests.prompter.announce(request, purpose: purpose) }
    }

    /// Stores the refusals the kernel gave while linking (by member file), so `assets` and
    /// `doctor` name those originals and no view tries them again until they change.
    /// Also stores the location checks made while linking, so a restart does not look at those files again.
    private func recordLearnedRefusals() throws {
        let learned = views.takeLearnedRefusals()
        let checks = views.derivatives.takeLearned()
        guard !learned.isEmpty || !checks.isEmpty else { return showDerivatives() }
        if !learned.isEmpty { index.recordedDigests = nil }  // a refusal is in a row's digest
        try store.write { tx in
            for (rowID, refusal) in learned { try tx.setRefusal(refusal, memberRowID: rowID) }
            for (rowID, check) in checks { try tx.setLocationCheck(check, memberRowID: rowID) }
        }
        showDerivatives()
    }
}
