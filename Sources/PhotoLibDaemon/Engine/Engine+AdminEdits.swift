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
        if flatpak { try self.flatpak.checkInstalled(id) }
        let record = AppRegistry.newRecord(id, uid: uid, purpose: purpose, location: location, flatpak: flatpak, ownerUID: ownerUID)
        let plan = try store.write { tx in try apps.register(record, at: clock.now(), tx: tx) }
        try settle(ChangeSet(acts: plan.acts))
        logger.notice("App \(id) registered for uid \(record.uid), location \(location.rawValue)\(flatpak ? ", its view its Flatpak Pictures folder" : "").")
        return record
    }

    /// Sets whether an app sees where photos were taken. Its view is linked
    /// again at once (originals, or derivatives without location), and it is
    /// told to reload: sizes and contents of its entries may have changed.
    func setLocation(_ id: AppID, _ policy: LocationPolicy) throws -> AppRecord {
        let done = try store.write { tx in try apps.setLocation(id, policy, tx: tx) }
        try settle(ChangeSet(acts: done.plan.acts, events: done.published))
        logger.notice("App \(id) now has location \(policy.rawValue).")
        return done.plan.after
    }

    /// Whether captions and people's names leave with the app's picks when the person says nothing.
    /// Views are not changed (SPEC: picks only); nothing to reconcile.
    func setCaptions(_ id: AppID, shared: Bool) throws -> AppRecord {
        let plan = try store.write { tx in try apps.setCaptions(id, shared: shared, tx: tx) }
        try settle(ChangeSet(acts: plan.acts))
        logger.notice("App \(id): captions and people's names are \(SharingChoice.captionsWord(shared)) in what it picks.")
        return plan.after
    }

    /// Removes an app: its Flatpak override's lines first, then its record and requests, then its view.
    func removeApp(_ id: AppID) throws {
        guard let removed = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        // The app's own permissions come back before it is forgotten, while the record of photolibd's lines is there.
        try flatpak.syncPicturesOverride(removed, removing: true)
        let done = try store.write { tx in try apps.remove(removed, tx: tx) }
        try views.removeView(removed, index: index, store: store)
        // The person's tools take down prompts for an app that is gone.
        try settle(ChangeSet(acts: done.plan.acts, events: done.published))
        logger.notice("App \(id) removed; its view is gone.")
    }

    /// Sets an app's status for one access level. Pending requests the change
    /// decides are answered with it (`AuthorizationPlan`): the one the person is
    /// answering (`answering`), and any whose question no longer stands.
    /// With `endsAt`, the status lasts until then and returns to what it was
    /// (`ExpiringGrant.returnStatus`); `reason` is `expired` when it is that return.
    func authorize(
        _ id: AppID, access level: AccessLevel, status: AuthorizationStatus, by: EventActor,
        answering: AuthorizationPlan.Answering? = nil, endsAt: Int64? = nil, reason: String? = nil, confirmed: Bool = false
    ) throws -> (record: AppRecord, settled: [RequestSettlement]) {
        if level == .readWrite, let app = try store.read({ try $0.app(id) }) { try flatpak.checkCanLimit(app, to: status, confirmed: confirmed) }
        let change = AuthorizationChange(app: id, by: by, change: AuthorizationPlan.Change(
            level: level, status: status, answering: answering, endsAt: endsAt, reason: reason, confirmed: confirmed))
        let done = try store.write { tx in try grants.commit(change, tx: tx) }
        var changes = ChangeSet(acts: done.plan.acts, events: done.published)
        changes.answer(done.settled, purpose: done.plan.after.purpose)
        try settle(changes)
        logAuthorization(done.plan)
        return (done.plan.after, done.settled)
    }

    func logAuthorization(_ plan: AuthorizationPlan) {
        let change = plan.change
        let until = change.endsAt.map { " until \($0) (seconds since 1970)" } ?? (change.reason.map { " (\($0))" } ?? "")
        logger.notice("App \(plan.after.id) is now \(change.status.rawValue) for \(change.level.rawValue)\(until).")
    }
}
