import PhotoLibCore
import Testing

/// Plans of an app's registration, settings, rules and grants that end.
@Suite("App, rule and grant-end plans")
struct AppPlanTests {
    let library = PlanFixture()

    @Test("registering: a taken ID is refused with its uid; a new app gets its view, passage, inbox and open watch")
    func register() throws {
        let app = library.app(.notDetermined)
        let plan = try AppPlan.register(app, existing: nil)
        #expect(plan.acts == SettleActs(reconcile: .apps([app.id]), kinds: [.passages, .inboxes, .viewOpens]))
        var other = app
        other.uid = 4242
        #expect(throws: PhotoLibError.appExists(app.id, uid: 4242)) { try AppPlan.register(app, existing: other) }
    }

    @Test("removing: its pending requests are withdrawn; what only it linked may go")
    func remove() {
        let pending = [library.request(1, .review), library.request(2, .authorization(.addOnly))]
        let plan = AppPlan.remove(library.app(), requests: pending)
        #expect(plan.withdrawn == pending)
        #expect(plan.acts == SettleActs(derivatives: .all, kinds: [.passages, .inboxes, .viewOpens]))
    }

    @Test("location: a change is a reload and a relink; the same setting again relinks without a reload; captions touch no view")
    func settings() {
        let app = library.app(location: .precise)
        let hidden = AppPlan.location(.none, of: app)
        #expect(hidden.after.location == .none && hidden.reloads)
        #expect(hidden.acts == SettleActs(reconcile: .apps([app.id]), derivatives: .all))
        #expect(!AppPlan.location(.precise, of: app).reloads)
        let captions = AppPlan.captions(true, of: app)
        #expect(captions.after.captions && !captions.reloads && captions.acts == .none)
    }

    @Test("a rule: the same span again is the rule already given; only a limited app reloads; removal takes the app's named rules")
    func rules() {
        let rome = CaptureRule(id: 7, from: 100, to: 200, mediaType: nil)
        let videos = CaptureRule(id: 8, from: 100, to: 200, mediaType: .video)
        let again = RulePlan.add(from: 100, to: 200, mediaType: nil, app: library.app(), rules: [rome, videos])
        #expect(again.existing == rome && !again.reloads)
        let new = RulePlan.add(from: 100, to: 300, mediaType: nil, app: library.app(), rules: [rome])
        #expect(new.existing == nil && new.reloads)
        #expect(new.acts == SettleActs(reconcile: .apps([library.app().id]), derivatives: .all))
        #expect(!RulePlan.add(from: 100, to: 300, mediaType: nil, app: library.app(.authorized), rules: []).reloads)
        #expect(RulePlan.remove(ids: [8, 99], app: library.app(), rules: [rome, videos]).removed == [videos])
        #expect(RulePlan.remove(ids: nil, app: library.app(), rules: [rome, videos]).removed == [rome, videos])
        let none = RulePlan.remove(ids: [99], app: library.app(), rules: [rome])
        #expect(none.removed.isEmpty && !none.reloads)
    }

    @Test("grants that end: what the index names leaves by a selection edit, what it cannot only loses its grant, statuses return")
    func grantEnds() {
        let app = library.app().id
        let a = library.asset(1, in: 2)
        let ended = [ExpiringGrant(app: app, kind: .asset(1), endsAt: 10), ExpiringGrant(app: app, kind: .asset(9), endsAt: 10),
                     ExpiringGrant(app: app, kind: .album(3), endsAt: 10), ExpiringGrant(app: app, kind: .album(55), endsAt: 10),
                     ExpiringGrant(app: app, kind: .authorization(.readWrite, returnsTo: .limited), endsAt: 10)]
        let plan = GrantEndPlan.decide(ended, records: [1: a], tree: library.tree)
        #expect(plan.assets == [a] && plan.albums == [3] && plan.removesNamed)
        #expect(plan.unnamedAssetRows == [9] && plan.unnamedAlbums == [55])
        #expect(plan.statuses == [AuthorizationPlan.Change(level: .readWrite, status: .limited, reason: "expired")])
        #expect(!GrantEndPlan.decide(Array(ended.suffix(1)), records: [:], tree: library.tree).removesNamed)
    }
}

/// What the library's changes leave to the settle.
@Suite("Library plans")
struct LibraryPlanTests {
    let library = PlanFixture()

    @Test("a batch: the root gone first, then a full scan (a reload for all when events were lost), then too many, then where to link")
    func batches() {
        let apps: Set<AppID> = [library.app().id]
        func settle(rootGone: Bool = false, fullScan: Bool = false, lost: Bool = false, tooMany: Bool = false, changes: Int = 1,
                    queued: Bool = false) -> LibraryPlan.BatchSettlement {
            LibraryPlan.settle(rootGone: rootGone, needsFullScan: fullScan, eventsLost: lost, tooMany: tooMany, changes: changes,
                               moreQueued: queued, apps: apps)
        }
        #expect(settle(rootGone: true, fullScan: true, tooMany: true) == .libraryGone)
        #expect(settle(fullScan: true, lost: true, tooMany: true) == .fullScan(reloadEveryApp: true))
        #expect(settle(fullScan: true) == .fullScan(reloadEveryApp: false))
        #expect(settle(tooMany: true, queued: true) == .reconcile(apps))
        #expect(settle(queued: true) == .linkAlongside, "more to index: the links are made while it is")
        #expect(settle() == .linkHere && settle(changes: 0, queued: true) == .linkHere, "nothing to carry to another thread")
    }

    @Test("a batch's acts: the copies of the members it touched, none when every view is reconciled whole")
    func batchActs() {
        let change = ViewChange.asset(old: library.located(library.asset(1, in: 2)), new: nil)
        #expect(LibraryPlan.batchActs(.linkHere, changes: [change]) == SettleActs(derivatives: .library([change])))
        #expect(LibraryPlan.batchActs(.linkAlongside, changes: [change]) == SettleActs(derivatives: .library([change])))
        #expect(LibraryPlan.batchActs(.reconcile([library.app().id]), changes: [change]) == SettleActs(reconcile: .apps([library.app().id])))
        #expect(LibraryPlan.batchActs(.fullScan(reloadEveryApp: true), changes: [change]) == .none)
    }

    @Test("the library gone: apps that saw something reload; every view is reconciled")
    func gone() {
        let plan = LibraryPlan.gone(apps: [library.app(.limited), library.app(.denied)])
        #expect(plan.reloads == [library.app().id] && plan.acts.reconcile == .every)
        #expect(LibraryPlan.scanned == SettleActs(reconcile: .every, kinds: .inboxes))
    }
}
