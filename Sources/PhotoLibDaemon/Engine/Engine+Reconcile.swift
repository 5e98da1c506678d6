import PhotoLibConfiguration
import Glibc
import Logging
import PhotoLibCore
import PhotoLibDoctor
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// What views are reconciled from (each app's context), and the library going away.
extension Engine {
    /// Removes derivatives no view links any more (all of them, or those of these members), and shows what stays in `status`.
    func collectDerivatives(members: [Int64]? = nil) {
        if let members {
            views.derivatives.collectGarbage(members: members)
        } else {
            views.derivatives.collectGarbage()
        }
        showDerivatives()
    }

    func showDerivatives() {
        board.update {
            $0.derivatives = views.derivatives.tally.count
            $0.derivativeBytes = views.derivatives.tally.bytes
            $0.withheldFromNoLocation = views.derivatives.tally.withheld
        }
    }

    func libraryGone() throws {
        lifecycle.libraryAvailable = false
        board.update { $0.phase = .libraryMissing }
        lifecycle.finishScanWaiters()
        let (published, acts) = try store.write { tx in
            let plan = LibraryPlan.gone(apps: try tx.apps())
            return (try plan.reloads.map { try journal.recordReload($0, tx: tx) }, plan.acts)
        }
        try settle(ChangeSet(acts: acts, events: published))
    }

    /// Lets every app uid through the directories photolibd made above the views (SPEC §4).
    func updatePassages() throws {
        let (paths, apps) = try store.read { tx in (try tx.madeDirectories(), try tx.apps()) }
        PassageDirectories(logger: logger).update(paths, appUIDs: apps.map(\.uid), owner: views.ownerUID)
        views.reachWarning.check(apps)
    }

    /// Every app's view context (or one app's), as the store holds them now.
    func appContexts(only app: AppID? = nil) throws -> [AppViewContext] {
        // Read before the contexts: a commit in between makes the next call read them again.
        let version = store.appStateVersion
        if app == nil, let carried = carried.contexts, carried.version == version { return carried.contexts }
        let contexts = try loadContexts(only: app)
        if app == nil { carried.contexts = (version, contexts) }
        return contexts
    }

    func loadContexts(only app: AppID?) throws -> [AppViewContext] {
        try store.read { tx in
            try tx.apps().filter { $0.layout != .empty && (app == nil || $0.id == app) }.map { app in
                AppViewContext(app: app, policy: try tx.viewPolicy(of: app), appearance: appearance(for: app))
            }
        }
    }

    /// How members appear to this app: as the location checks say, for an app without location.
    func appearance(for app: AppRecord) -> (LocatedMember) -> MemberAppearance {
        let derivatives = views.derivatives
        let policy = app.location
        return { member in derivatives.appearance(policy: policy, member: member) }
    }

    /// Inside a write transaction: decides, from what is known and from the copies made ahead of it,
    /// how the assets an app without location is about to be told of appear to it, so the sizes it
    /// hears are those its view will hold. No system call: SQLite's write lock is held.
    func decideWithoutLocation(_ assets: [LocatedAsset], for contexts: [AppViewContext]) {
        let hidden = contexts.filter { $0.app.location == .none && $0.layout != .empty }
        guard !hidden.isEmpty else { return }
        for asset in assets where hidden.contains(where: { $0.policy.isGranted(asset) }) {
            views.decideWithoutLocation(asset)
        }
    }
}
