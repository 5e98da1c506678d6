import PhotoLibConfiguration
import Glibc
import Logging
import PhotoLibCore
import PhotoLibDoctor
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// Bringing views to the desired state, and what they are reconciled from: each app's context.
extension Engine {
    func reconcileAllViews() throws {
        let apps = try store.read { try $0.apps() }
        try updatePassages()
        try views.removeViews(except: Set(apps.map(\.viewName)))
        for app in apps {
            _ = try views.reconcile(app, index: index, store: store, libraryAvailable: libraryAvailable)
        }
        collectDerivatives()
        try recordLearnedRefusals()
        syncViewOpens(apps)
    }

    /// Stores the refusals the kernel gave while linking (by member file), so `assets` and
    /// `doctor` name those originals and no view tries them again until they change.
    /// Also stores the location checks made while linking, so a restart does not look at those files again.
    func recordLearnedRefusals() throws {
        let learned = views.takeLearnedRefusals()
        let checks = views.derivatives.takeLearned()
        guard !learned.isEmpty || !checks.isEmpty else { return showDerivatives() }
        try store.write { tx in
            for (rowID, refusal) in learned { try tx.setRefusal(refusal, memberRowID: rowID) }
            for (rowID, check) in checks { try tx.setLocationCheck(check, memberRowID: rowID) }
        }
        if !learned.isEmpty { cachedContexts = nil }
        showDerivatives()
    }

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
            $0.derivatives = views.derivatives.count
            $0.derivativeBytes = views.derivatives.bytes
            $0.withheldFromNoLocation = views.derivatives.withheld
        }
    }

    func libraryGone() throws {
        libraryAvailable = false
        board.update { $0.phase = .libraryMissing }
        finishScanWaiters()
        let published = try store.write { tx in
            try tx.apps().filter { $0.layout != .empty }.map { try journal.recordReload($0.id, tx: tx) }
        }
        try reconcileAllViews()
        hub.publish(published)
    }

    /// Lets every app uid through the directories photolibd made above the views (SPEC §4).
    func updatePassages() throws {
        let (paths, apps) = try store.read { tx in (try tx.madeDirectories(), try tx.apps()) }
        PassageDirectories(logger: logger).update(paths, appUIDs: apps.map(\.uid), owner: views.ownerUID)
        warnIfAppsReachLibrary(apps)
    }

    /// Logs a warning when an app uid could open the library itself, going
    /// around its view (SPEC §4): judged as doctor judges it, with that uid's
    /// groups and every ACL on the way. Said again only when the verdict changes.
    func warnIfAppsReachLibrary(_ apps: [AppRecord]) {
        // Each uid's groups are looked up once (a lookup reads /etc/passwd and
        // /etc/group): adding the thousandth app must not look up 999 again.
        let uids = Set(apps.map(\.uid))
        appGroups = appGroups.filter { uids.contains($0.key) }
        for uid in uids where appGroups[uid] == nil { appGroups[uid] = PathInspection.groups(ofUser: uid) }
        let known = appGroups
        let facts = SetupSurvey.gatherLibraryReach(
            library: configuration.library,
            apps: apps.map { .init(id: $0.id.rawValue, uid: $0.uid, view: "") }, groups: { known[$0] ?? [] })
        let verdict = DoctorVerdicts.libraryPrivacy(facts)
        let warning = verdict.outcome == .fail ? verdict.detail + " " + (verdict.advice ?? "") : nil
        if warning != lastLibraryReachWarning, let warning { logger.warning("\(warning)") }
        lastLibraryReachWarning = warning
    }

    func appContexts(only app: AppID? = nil) throws -> [AppViewContext] {
        if app == nil, let cachedContexts { return cachedContexts }
        let contexts = try loadContexts(only: app)
        if app == nil { cachedContexts = contexts }
        return contexts
    }

    func loadContexts(only app: AppID?) throws -> [AppViewContext] {
        try store.read { tx in
            try tx.apps().filter { $0.layout != .empty && (app == nil || $0.id == app) }.map { app in
                app.layout == .limited
                    ? AppViewContext(app: app, selectedAssets: try tx.selectedAssetRowIDs(app.id),
                                     selectedAlbums: try tx.selectedAlbums(app.id), selectedRules: try tx.selectedRules(app.id),
                                     appearance: appearance(for: app))
                    : AppViewContext(app: app, selectedAssets: [], selectedAlbums: [], appearance: appearance(for: app))
            }
        }
    }

    /// How members appear to this app: as the location checks say, for an app without location.
    func appearance(for app: AppRecord) -> (LocatedMember) -> MemberAppearance {
        let derivatives = views.derivatives
        let policy = app.location
        return { member in derivatives.appearance(policy: policy, member: member) }
    }

    /// Looks at the assets an app without location is about to be told of
    /// (deriving copies), so the sizes it hears are those its view will hold.
    func prepareWithoutLocation(_ assets: [LocatedAsset], for contexts: [AppViewContext]) {
        let hidden = contexts.filter { $0.app.location == .none && $0.layout != .empty }
        guard !hidden.isEmpty else { return }
        for asset in assets where hidden.contains(where: { $0.policy.isGranted(asset) }) {
            views.prepareWithoutLocation(asset)
        }
    }
}
