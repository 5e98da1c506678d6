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

    /// Checks the person's choice and opens every file, on the actor (the index is read here).
    fileprivate func preparePick(_ requestID: Int64, _ named: NamedItems, location: Bool?, captions: Bool?) throws -> PreparedPick {
        guard let request = try store.read({ try $0.request(id: requestID) }) else { throw PhotoLibError.unknownRequest(requestID) }
        _ = try RequestPolicy.effect(of: .pick, to: request.kind, namesItems: !named.isEmpty)
        guard let options = request.kind.pickOptions else { throw PhotoLibError.unknownRequest(requestID) }
        let chosen = try index.resolve(named).assets.map { record in
            guard let located = index.locate(record) else { throw PhotoLibError.unknownAsset(record.id.rawValue) }
            return located
        }
        let deliveries = try PickPolicy.deliveries(chosen: chosen, options: options)
        guard let waiter = requests.picks.claim(requestID) else {
            // Its connection closed a moment ago; the close withdraws it.
            throw PhotoLibError.pick(.appGone(app: request.app))
        }
        let copies = !PickPolicy.sharesOriginal(peerUID: waiter.peerUID, ownerUID: ownerUID)
        let sharing: SharingChoice
        let appRecord: AppRecord
        do {
            guard let record = try store.read({ try $0.app(request.app) }) else { throw PhotoLibError.unknownApp(request.app) }
            appRecord = record
            sharing = try SharingChoice.answer(location: location, captions: captions, app: record)
        } catch {
            requests.picks.register(requestID, waiter)
            throw error
        }
        var opened: [PreparedPick.OpenedMember] = []
        defer { index.access.invalidate() }
        do {
            defer {
                // Checks made here; not storing them only means looking again, but say so.
                do {
                    try settle(ChangeSet())
                } catch {
                    logger.warning("Cannot store the location checks made for a pick: \(error); those files are looked at again.")
                }
            }
            for delivery in deliveries {
                for (member, format) in zip(delivery.members, delivery.formats) {
                    let original = try PickHandover.openOriginal(member, asset: delivery.asset.id, in: index.access, ownerUID: ownerUID)
                    let (file, size) = try withoutLocation(original, member, asset: delivery.asset.id, policy: sharing.locationPolicy)
                    let directory: FileDescriptor
                    do {
                        directory = try Directory.open(member.path.parent ?? .root, in: index.access.root)
                    } catch {
                        file.close()
                        throw PhotoLibError.pick(.cannotOpen(asset: delivery.asset.id.rawValue, path: member.path.escaped, errno: error.errno))
                    }
                    opened.append(.init(member: member, original: file, size: size, copyDirectory: directory, mustCopy: copies, format: format))
                }
            }
        } catch {
            for file in opened {
                file.original.close()
                file.copyDirectory.close()
            }
            requests.picks.register(requestID, waiter)
            throw error
        }
        return PreparedPick(request: request, waiter: waiter, deliveries: deliveries, ids: appRecord.assetIDs, opened: opened,
                            removal: sharing.removal, locationAllowed: sharing.location)
    }

    /// For an app that may not see locations: the member's derivative in
    /// place of an original that holds one (the same one its view would link).
    private func withoutLocation(_ original: FileDescriptor, _ member: LocatedMember, asset: AssetID,
                                 policy: LocationPolicy) throws -> (FileDescriptor, Int64) {
        switch views.source(ofMember: member.rowID, file: member.file, at: member.path, policy: policy) {
        case .original:
            return (original, member.file.size)
        case .derivative(let inode, _):
            original.close()
            do {
                let derivative = try FileCopy.openUntrusted(DerivativeCatalog.derivativeName(member.rowID), in: views.derivatives.directory)
                let status = try Directory.status(of: derivative)
                guard status.inode == inode else {
                    derivative.close()
                    throw PhotoLibError.pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: nil))
                }
                return (derivative, status.size)
            } catch let error as SystemCallError {
                throw PhotoLibError.pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: error.errno))
            }
        case .withheld(let reason):
            original.close()
            throw PhotoLibError.pick(.locationUnknown(asset: asset.rawValue, path: member.path.escaped, reason: reason))
        case .needsCheck:  // `source` always looks first; never returned
            original.close()
            throw PhotoLibError.pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: nil))
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
        let now = clock.now()
        let picked = prepared.deliveries.map(\.asset.id)
        let (status, purpose) = try store.write { tx -> (AuthorizationStatus, String) in
            try tx.deleteRequest(prepared.request.id)
            try tx.logAccess(picked.map { AccessLogEntry(app: prepared.request.app, asset: $0, how: .pick, request: prepared.request.id, at: now) })
            let record = try tx.app(prepared.request.app)
            return (record?.readWrite ?? .notDetermined, record?.purpose ?? "")
        }
        let outcome = RequestOutcome(app: prepared.request.app, kind: prepared.request.kind, request: prepared.request.id, state: .answered,
                                     answer: RequestAnswer.pick.rawValue, status: status,
                                     pickedAssets: picked.map { (prepared.ids?.id(for: $0) ?? $0).rawValue })
        do {
            try settle(ChangeSet(events: [try journal.requestEvent(prepared.request, purpose: purpose, state: .answered,
                                                                   answer: RequestAnswer.pick.rawValue)]))
        } catch {
            // The pick was handed over and logged; only the prompt's update (or a learned check) is lost.
            logger.error("Could not finish telling of request \(prepared.request.id): \(error)")
        }
        logger.notice("Request \(prepared.request.id): \(picked.count) assets handed to \(prepared.request.app) once (\(prepared.opened.count) files).")
        return outcome
    }
}
