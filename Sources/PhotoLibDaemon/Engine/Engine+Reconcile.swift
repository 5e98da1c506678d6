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
    /// Shows in `status` the copies without location kept, and what is withheld.
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
                AppViewContext(app: app, policy: try tx.viewPolicy(of: app), appearance: views.appearance(for: app))
            }
        }
    }
}
