import PhotoLibCore
import Testing

/// An authorization's plan: the status and what it returns to, the requests it answers, the reload,
/// and the acts; and a change composed of a selection and an authorization, whose acts are done once.
@Suite("Authorization plans")
struct AuthorizationPlanTests {
    let library = PlanFixture()

    @Test("answering a request: it and any whose question no longer stands are settled; the other level's waits")
    func answering() {
        let asked = library.request(1, .authorization(.readWrite))
        let review = library.request(2, .review)
        let addOnly = library.request(3, .authorization(.addOnly))
        let change = AuthorizationPlan.Change(level: .readWrite, status: .authorized,
                                              answering: AuthorizationPlan.Answering(request: asked, answer: .authorized))
        let plan = AuthorizationPlan.decide(change, app: library.app(.notDetermined), pendingReturn: nil, requests: [asked, review, addOnly])
        #expect(plan.after.readWrite == .authorized && plan.after.addOnly == .notDetermined)
        #expect(plan.settled.map(\.request.id) == [1, 2], "a review no longer stands once the app is not limited")
        #expect(plan.settled.map(\.answer) == ["authorized", "authorized"])
        #expect(plan.settled[0].addedAssets == [] && plan.settled[1].addedAssets == nil, "only the answered request lists what was added")
        #expect(plan.namedRequest == 1)
        #expect(plan.reloads, "read-write changed: the app reads its view again")
        #expect(plan.returnsTo == nil)
        #expect(plan.acts == SettleActs(reconcile: .apps([plan.after.id]), derivatives: .all, kinds: .grantAlarm,
                                        picturesFollow: [SettleActs.PicturesFollow(app: plan.after, confirmed: false)]))
    }

    @Test("set from the command line: a pending request of the level is named and settled; restricted is no answer a person types")
    func unasked() {
        let pending = library.request(4, .authorization(.addOnly))
        let plan = AuthorizationPlan.decide(AuthorizationPlan.Change(level: .addOnly, status: .restricted), app: library.app(),
                                            pendingReturn: nil, requests: [pending])
        #expect(plan.settled.map(\.request.id) == [4] && plan.settled[0].answer == nil && plan.settled[0].status == .restricted)
        #expect(plan.namedRequest == 4)
        #expect(!plan.reloads, "add-only shapes no view")
    }

    @Test("a timed status returns to where the first timed one began; one that lasts returns nowhere")
    func timed() {
        let timed = AuthorizationPlan.Change(level: .readWrite, status: .authorized, endsAt: 5_000)
        #expect(AuthorizationPlan.decide(timed, app: library.app(.limited), pendingReturn: nil, requests: []).returnsTo == .limited)
        #expect(AuthorizationPlan.decide(timed, app: library.app(.denied), pendingReturn: .limited, requests: []).returnsTo == .limited)
        let lasting = AuthorizationPlan.Change(level: .readWrite, status: .authorized)
        #expect(AuthorizationPlan.decide(lasting, app: library.app(.limited), pendingReturn: .limited, requests: []).returnsTo == nil)
        let same = AuthorizationPlan.decide(lasting, app: library.app(.authorized), pendingReturn: nil, requests: [])
        #expect(!same.reloads, "the same status again: nothing to read again")
    }

    @Test("a request answered limited with photos: the selection's and the status's acts done once, the photos listed in the answer")
    func composed() {
        let a = library.asset(1, in: 2)
        let asked = library.request(1, .authorization(.readWrite))
        let selection = SelectionPlan.decide(SelectionPlan.Edit(app: library.app(.notDetermined), assets: [a], albums: [], adding: true),
                                             grants: library.grants(), inAlbumsNamed: [], tree: library.tree)
        let change = AuthorizationPlan.Change(level: .readWrite, status: .limited,
                                              answering: AuthorizationPlan.Answering(request: asked, answer: .limited),
                                              addedAssets: selection.shownAdded)
        let status = AuthorizationPlan.decide(change, app: library.app(.notDetermined), pendingReturn: nil, requests: [asked])
        #expect(status.settled.map(\.addedAssets) == [[library.ids.id(for: a.id).rawValue]])
        #expect(selection.viewChanges.isEmpty, "the app was not limited yet: its view is reconciled whole with the status")
        let acts = selection.acts.merged(with: status.acts)
        #expect(acts.reconcile == .apps([status.after.id]) && acts.derivatives == .all && acts.picturesFollow.count == 1)
    }

    @Test("acts merge: the wider reconcile and clean-up, every kind, the later follow of an app")
    func merging() {
        let app = library.app()
        var later = app
        later.readWrite = .denied
        let first = SettleActs(reconcile: .apps([app.id]), derivatives: .members([1]), kinds: .passages,
                               picturesFollow: [SettleActs.PicturesFollow(app: app, confirmed: true)])
        let second = SettleActs(derivatives: .members([2]), kinds: .grantAlarm, picturesFollow: [SettleActs.PicturesFollow(app: later, confirmed: false)])
        let merged = first.merged(with: second)
        #expect(merged.reconcile == .apps([app.id]) && merged.derivatives == .members([1, 2]) && merged.kinds == [.passages, .grantAlarm])
        #expect(merged.picturesFollow == [SettleActs.PicturesFollow(app: later, confirmed: false)])
        #expect(first.merged(with: SettleActs(reconcile: .every, derivatives: .all)).reconcile == .every)
        #expect(first.merged(with: SettleActs(derivatives: .all)).derivatives == .all)
        #expect(SettleActs.none.merged(with: first) == first)
    }
}
