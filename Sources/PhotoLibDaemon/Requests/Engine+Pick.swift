import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// The one-time pick (PHPickerViewController): an app asks, the person
/// chooses, and the app receives the chosen files as descriptors over its
/// connection, once. No view entry is made and no grant is kept; each pick
/// is written to the access log. The rules are `PickPolicy`'s.
extension Engine {
    /// An app asks to pick; the reply comes through `waiter` when the person answers.
    func askPick(_ app: AppID, options: PickOptions, notify: Bool = true, waiter: PickWaiter) throws -> Int64 {
        let made = try store.write { tx in try requests.askPick(app, options: options, now: clock.now(), tx: tx) }
        let request = made.request
        requests.picks.register(request.id, waiter)
        try settle(try requests.settling(pick: made, announce: notify && waiter.isOpen(), journal: journal))
        // The connection may have closed while this was on its way here, after its close withdrew what it
        // had: withdraw this one too (a prompt shown meanwhile is taken down by the withdrawal's event).
        if !waiter.isOpen() {
            withdrawPicksNow(of: waiter.connection)
            return request.id
        }
        logger.notice("App \(app) asks \(request.kind.described) (request \(request.id)\(notify ? "" : ", its sheet opened by the caller")); answer with 'photolibctl answer \(request.id) ASSET…' or 'cancel'.")
        return request.id
    }

    /// The person's choice for a pending pick: checks it, opens the files (or
    /// private copies), hands them to the app's connection, and logs the pick.
    /// Nothing is handed over unless all of it can be; on a mistake the pick
    /// stays pending so the person can answer again.
    /// `location` and `captions` are the person's choices for this pick (`SharingChoice`); nil takes the app's settings.
    nonisolated func answerPick(_ requestID: Int64, _ named: NamedItems, location: Bool? = nil, captions: Bool? = nil) async throws -> RequestOutcome {
        let prepared = try await change { try $0.preparePick(requestID, named, location: location, captions: captions) }
        let files: [PickHandover.Handed]
        do {
            files = try await PickHandover.files(for: prepared, fallback: configuration.state)
        } catch {
            await putBack(prepared)
            throw error
        }
        let result = PickHandover.reply(to: requestID, prepared, files)
        do {
            try await prepared.waiter.deliver(result, files.map(\.fd))
        } catch {
            await withdrawWhenReady(prepared.request)
            throw PhotoLibError.pick(.appGone(app: prepared.request.app))
        }
        return try await change { try $0.finishPick(prepared) }
    }

    /// Checks the person's choice and opens every file, on the actor (the index is read here): the answer
    /// is the desk's to check, the deliveries `PickPolicy`'s, the files `PickHandover`'s to open.
    fileprivate func preparePick(_ requestID: Int64, _ named: NamedItems, location: Bool?, captions: Bool?) throws -> PreparedPick {
        let answer = try store.read { tx in
            try requests.pickAnswer(requestID, namesItems: !named.isEmpty, location: location, captions: captions, tx: tx)
        }
        let chosen = try index.resolve(named).assets.map { record in
            guard let located = index.locate(record) else { throw PhotoLibError.unknownAsset(record.id.rawValue) }
            return located
        }
        let deliveries = try PickPolicy.deliveries(chosen: chosen, options: answer.options)
        guard let waiter = requests.picks.claim(requestID) else {
            // Its connection closed a moment ago; the close withdraws it.
            throw PhotoLibError.pick(.appGone(app: answer.request.app))
        }
        defer {
            index.access.invalidate()
            // Location checks made while opening; not storing them only means looking again, but say so.
            do {
                try settle(ChangeSet())
            } catch {
                logger.warning("Cannot store the location checks made for a pick: \(error); those files are looked at again.")
            }
        }
        let policy = answer.sharing.locationPolicy
        do {
            let opened = try PickHandover.open(
                deliveries, copies: !PickPolicy.sharesOriginal(peerUID: waiter.peerUID, ownerUID: ownerUID), in: index.access,
                ownerUID: ownerUID, derivatives: views.derivatives.directory
            ) { member in views.source(ofMember: member.rowID, file: member.file, at: member.path, policy: policy) }
            return PreparedPick(request: answer.request, waiter: waiter, deliveries: deliveries, ids: answer.app.assetIDs, opened: opened,
                                removal: answer.sharing.removal, locationAllowed: answer.sharing.location)
        } catch {
            requests.picks.register(requestID, waiter)
            throw error
        }
    }

    /// A pick that could not be handed over for a reason the person can fix: it waits again.
    private func putBack(_ prepared: PreparedPick) {
        if prepared.waiter.isOpen() {
            requests.picks.register(prepared.request.id, prepared.waiter)
        } else {
            withdrawRequest(prepared.request)
        }
    }

    /// Ends a pick that was handed over: removes the request, logs what the
    /// app received, tells the person's tools.
    fileprivate func finishPick(_ prepared: PreparedPick) throws -> RequestOutcome {
        let (outcome, purpose) = try store.write { tx in try requests.finishPick(prepared, now: clock.now(), tx: tx) }
        do {
            try settle(try requests.settling(answeredPick: prepared.request, purpose: purpose, journal: journal))
        } catch {
            // The pick was handed over and logged; only the prompt's update (or a learned check) is lost.
            logger.error("Could not finish telling of request \(prepared.request.id): \(error)")
        }
        logger.notice("Request \(prepared.request.id): \(prepared.deliveries.count) assets handed to \(prepared.request.app) once (\(prepared.opened.count) files).")
        return outcome
    }
}
