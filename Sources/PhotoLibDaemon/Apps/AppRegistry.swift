import PhotoLibCore
import PhotoLibStore

/// The owner of the registered apps (SPEC §4): an app's record, made and kept — who it runs as, its
/// view's name, its own asset IDs, whether it sees where photos were taken and whether captions leave
/// with its picks — and its removal with the requests it left.
///
/// Its state is in the store. It plans each change (`AppPlan`) and writes it, with its journal
/// entries, in a transaction the engine opens, and says what the settle is to do; the engine
/// sequences (a Flatpak app's override before the removal, the view's removal after it, the settle).
/// No system call: the write lock is held.
struct AppRegistry {
    let journal: ChangeJournal

    /// A new app's record: its view's name and its asset IDs' key drawn at random, never derived from
    /// its ID. A Flatpak app runs as the owner (`ownerUID`), whatever `uid` says.
    static func newRecord(_ id: AppID, uid: UInt32, purpose: String, location: LocationPolicy, flatpak: Bool, ownerUID: UInt32) -> AppRecord {
        var generator = SystemRandomNumberGenerator()
        var record = AppRecord(id: id, uid: flatpak ? ownerUID : uid, purpose: purpose, readWrite: .notDetermined, addOnly: .notDetermined,
                               viewName: ViewName.random(using: &generator), location: location,
                               assetIDs: AppAssetIDs.random(using: &generator))
        record.flatpakPictures = flatpak
        return record
    }

    /// Registers `record`; an app of that ID already registered is refused.
    func register(_ record: AppRecord, at now: Int64, tx: StoreTransaction) throws -> AppPlan.Decided {
        let plan = try AppPlan.register(record, existing: try tx.app(record.id))
        try tx.insertApp(record, createdAt: now)
        return plan
    }

    /// Sets whether an app sees where photos were taken; a change has the app told to reload (its
    /// entries' sizes and contents may change).
    func setLocation(_ id: AppID, _ policy: LocationPolicy, tx: StoreTransaction) throws -> (plan: AppPlan.Decided, published: [PublishedEvent]) {
        guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
        let plan = AppPlan.location(policy, of: before)
        try tx.setLocation(id, plan.after.location)
        return (plan, plan.reloads ? [try journal.recordReload(id, tx: tx)] : [])
    }

    /// Sets whether captions and people's names leave with the app's picks when the person says nothing.
    func setCaptions(_ id: AppID, shared: Bool, tx: StoreTransaction) throws -> AppPlan.Decided {
        guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
        let plan = AppPlan.captions(shared, of: before)
        try tx.setCaptions(id, shared: plan.after.captions)
        return plan
    }

    /// Forgets `record`, its requests with it; what the person's tools hear (each request withdrawn).
    func remove(_ record: AppRecord, tx: StoreTransaction) throws -> (plan: AppPlan.Removal, published: [PublishedEvent]) {
        let plan = AppPlan.remove(record, requests: try tx.requests(app: record.id))
        try tx.deleteApp(record.id)
        return (plan, try plan.withdrawn.map { try journal.requestEvent($0, purpose: record.purpose, state: .cancelled, answer: nil) })
    }
}
