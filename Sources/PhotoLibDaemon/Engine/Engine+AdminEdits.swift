import PhotoLibConfiguration
import Glibc
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// Edits made through the socket by the library's owner: apps, authorizations, selections.
extension Engine {
    /// Registers an app. With `flatpak`, an installed Flatpak app (it runs as the owner) whose
    /// Pictures folder becomes its view once the person limits it.
    func addApp(_ id: AppID, uid: UInt32, purpose: String, location: LocationPolicy, flatpak: Bool = false) throws -> AppRecord {
        if flatpak {
            let files = flatpakFiles
            let installed: Bool
            do {
                installed = try files.metadata(of: id) != nil
            } catch {
                throw PhotoLibError.flatpakOverrideFailed(id, path: files.userDirectory + "/app/" + id.rawValue, errno: error.errno)
            }
            if !installed { throw PhotoLibError.flatpakNotInstalled(id, installations: [files.userDirectory, files.systemDirectory]) }
        }
        var generator = SystemRandomNumberGenerator()
        var record = AppRecord(id: id, uid: flatpak ? views.ownerUID : uid, purpose: purpose, readWrite: .notDetermined, addOnly: .notDetermined,
                               viewName: ViewName.random(using: &generator), location: location,
                               assetIDs: AppAssetIDs.random(using: &generator))
        record.flatpakPictures = flatpak
        try store.write { tx in
            if let existing = try tx.app(id) { throw PhotoLibError.appExists(id, uid: existing.uid) }
            try tx.insertApp(record, createdAt: clock.now())
        }
        var changes = ChangeSet(reconcile: .apps([id]))
        changes.acts = [.passages, .inboxes, .viewOpens]
        try settle(changes)
        logger.notice("App \(id) registered for uid \(record.uid), location \(location.rawValue)\(flatpak ? ", its view its Flatpak Pictures folder" : "").")
        return record
    }

    /// Sets whether an app sees where photos were taken. Its view is linked
    /// again at once (originals, or derivatives without location), and it is
    /// told to reload: sizes and contents of its entries may have changed.
    func setLocation(_ id: AppID, _ policy: LocationPolicy) throws -> AppRecord {
        var published: [PublishedEvent] = []
        let record = try store.write { tx -> AppRecord in
            guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            try tx.setLocation(id, policy)
            if before.location != policy { published.append(try journal.recordReload(id, tx: tx)) }
            guard let after = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            return after
        }
        try settle(ChangeSet(reconcile: .apps([id]), derivatives: .all, events: published))
        logger.notice("App \(id) now has location \(policy.rawValue).")
        return record
    }

    /// Whether captions and people's names leave with the app's picks when the person says nothing.
    /// Views are not changed (SPEC: picks only); nothing to reconcile.
    func setCaptions(_ id: AppID, shared: Bool) throws -> AppRecord {
        let record = try store.write { tx -> AppRecord in
            guard try tx.app(id) != nil else { throw PhotoLibError.unknownApp(id) }
            try tx.setCaptions(id, shared: shared)
            guard let after = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            return after
        }
        logger.notice("App \(id): captions and people's names are \(SharingChoice.captionsWord(shared)) in what it picks.")
        return record
    }

    func removeApp(_ id: AppID) throws {
        var withdrawn: [AccessRequest] = []
        let removed = try store.read { tx -> AppRecord in
            guard let record = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            return record
        }
        // The app's own permissions come back before it is forgotten, while the record of photolibd's lines is there.
        try syncPicturesOverride(removed, removing: true)
        try store.write { tx in
            withdrawn = try tx.requests(app: id)  // deleted with the app
            try tx.deleteApp(id)
        }
        try views.removeView(removed, index: index, store: store)
        // The person's tools take down prompts for an app that is gone.
        var changes = ChangeSet(derivatives: .all, events: try withdrawn.map {
            try journal.requestEvent($0, purpose: removed.purpose, state: .cancelled, answer: nil)
        })
        changes.acts = [.passages, .inboxes, .viewOpens]
        try settle(changes)
        logger.notice("App \(id) removed; its view is gone.")
    }

    /// Sets an app's status for one access level. Pending requests the change
    /// decides are answered with it (`settleRequests`): the one the person is
    /// answering (`answering`), and any whose question no longer stands.
    /// With `endsAt`, the status lasts until then and returns to what it was
    /// (`ExpiringGrant.returnStatus`); `reason` is `expired` when it is that return.
    func authorize(
        _ id: AppID, access level: AccessLevel, status: AuthorizationStatus, by: EventActor,
        answering: (request: AccessRequest, answer: RequestAnswer)? = nil, addedAssets: [AssetID] = [],
        endsAt: Int64? = nil, reason: String? = nil, confirmed: Bool = false
    ) throws -> (record: AppRecord, settled: [RequestSettlement]) {
        if level == .readWrite, let app = try store.read({ try $0.app(id) }) { try checkCanLimit(app, to: status, confirmed: confirmed) }
        let change = AuthorizationChange(app: id, level: level, status: status, by: by, answering: answering, addedAssets: addedAssets,
                                         endsAt: endsAt, reason: reason)
        let done = try store.write { tx in try commit(change, tx: tx) }
        var changes = ChangeSet(reconcile: .apps([id]), derivatives: .all, events: done.published)
        changes.answer(done.settled, purpose: done.record.purpose)
        follow(done.record, confirmed: confirmed, in: &changes)
        try settle(changes)
        logAuthorization(change)
        return (done.record, done.settled)
    }

    /// A status to set, as `authorize` takes it: the parts a composed change (a request answered, a
    /// grant's end) commits in its own transaction.
    struct AuthorizationChange {
        var app: AppID
        var level: AccessLevel
        var status: AuthorizationStatus
        var by: EventActor
        var answering: (request: AccessRequest, answer: RequestAnswer)?
        var addedAssets: [AssetID] = []
        var endsAt: Int64?
        var reason: String?
    }

    /// What an authorization's commit did: the app as it is now, the requests it decided, its events.
    struct AuthorizationCommit {
        var record: AppRecord
        var settled: [RequestSettlement]
        var published: [PublishedEvent]
    }

    /// Sets the status inside `tx` (no system call: the write lock is held).
    func commit(_ change: AuthorizationChange, tx: StoreTransaction) throws -> AuthorizationCommit {
        let (id, level, status) = (change.app, change.level, change.status)
        guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
        let returnsTo = ExpiringGrant.returnStatus(
            current: level == .readWrite ? before.readWrite : before.addOnly, pendingReturn: try tx.authorizationEnd(id, access: level)?.returnsTo)
        try tx.setAuthorization(id, access: level, status: status, endsAt: change.endsAt, returnsTo: returnsTo)
        guard let after = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
        let settled = try settleRequests(after, answering: change.answering, addedAssets: change.addedAssets, tx: tx)
        // The event names the request it answers, so a client that asked knows this is its answer.
        let answered = settled.first { $0.request.id == change.answering?.request.id }
            ?? settled.first { $0.request.kind == .authorization(level) }
        var published = [try journal.recordAuthorization(
            id, access: level, status: status, by: change.by, request: answered.map { ($0.request.id, .answered) }, reason: change.reason,
            endsAt: change.endsAt, tx: tx)]
        if level == .readWrite, before.readWrite != status {
            published.append(try journal.recordReload(id, tx: tx))
        }
        return AuthorizationCommit(record: after, settled: settled, published: published)
    }

    /// What an authorization leaves to the settle besides the app's view: its Flatpak override and
    /// Pictures watch follow the status, and the grant alarm is woken for its end.
    func follow(_ record: AppRecord, confirmed: Bool, in changes: inout ChangeSet) {
        changes.picturesFollow.append((record, confirmed))
        changes.acts.insert(.grantAlarm)
    }

    func logAuthorization(_ change: AuthorizationChange) {
        let until = change.endsAt.map { " until \($0) (seconds since 1970)" } ?? (change.reason.map { " (\($0))" } ?? "")
        logger.notice("App \(change.app) is now \(change.status.rawValue) for \(change.level.rawValue)\(until).")
    }
}
