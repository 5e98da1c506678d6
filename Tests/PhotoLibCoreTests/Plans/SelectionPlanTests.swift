import PhotoLibCore
import Testing

/// A selection edit's plan: what is written, what the view gains or loses, what the app is told and
/// what the settle does, decided on values alone.
@Suite("Selection plans")
struct SelectionPlanTests {
    let library = PlanFixture()

    @Test("adding: what was selected already is written again (its end replaced) but neither changes nor is newly given")
    func adding() {
        let (a, b, c) = (library.asset(1, in: 2), library.asset(2, in: 4), library.asset(3, in: 3))
        let edit = SelectionPlan.Edit(app: library.app(), assets: [a, b, a], albums: [2], adding: true, endsAt: 9_000)
        let plan = SelectionPlan.decide(edit, grants: library.grants(assets: [2]), inAlbumsNamed: [a, c], tree: library.tree)
        #expect(plan.assetRows == [1, 2], "each named once, the one already selected too (its end is replaced)")
        #expect(plan.changedAssets == [a] && plan.changedAlbums == [2])
        #expect(plan.after == library.grants(assets: [1, 2], albums: [2]))
        #expect(plan.touched == [library.located(a), library.located(c)], "the asset named and in the album is touched once")
        #expect(plan.added == [a.id, c.id], "Rome is below Trips: its photo is given with the album")
        #expect(plan.shownChangedAssets == [library.ids.id(for: a.id).rawValue], "the app hears its own IDs")
        #expect(plan.viewChanges == [.asset(old: nil, new: library.located(a)), .asset(old: nil, new: library.located(c))])
        #expect(plan.acts == SettleActs(kinds: .grantAlarm), "an end was set: the alarm is woken; nothing is unlinked")
    }

    @Test("an asset already granted by its album is selected but not newly given; an album already selected changes nothing")
    func alreadyGranted() {
        let a = library.asset(1, in: 3)
        let plan = SelectionPlan.decide(SelectionPlan.Edit(app: library.app(), assets: [a], albums: [2], adding: true),
                                        grants: library.grants(albums: [2]), inAlbumsNamed: [a], tree: library.tree)
        #expect(plan.changedAssets == [a] && plan.changedAlbums.isEmpty)
        #expect(plan.added.isEmpty)
        #expect(plan.acts == .none, "a selection that lasts sets no alarm")
    }

    @Test("removing: only what was selected leaves; its copies without location may have lost their last entry")
    func removing() {
        let (a, b, c) = (library.asset(1, in: 2), library.asset(2, in: 4), library.asset(3, in: 3))
        let plan = SelectionPlan.decide(SelectionPlan.Edit(app: library.app(), assets: [a, b], albums: [2, 4], adding: false),
                                        grants: library.grants(assets: [1], albums: [2]), inAlbumsNamed: [a, c, b], tree: library.tree)
        #expect(plan.changedAssets == [a] && plan.changedAlbums == [2], "b and Home were not selected")
        #expect(plan.after == library.grants())
        #expect(plan.touched.map(\.rowID) == [1, 3], "Home's photo is not touched: Home was not granted")
        #expect(plan.added.isEmpty)
        #expect(plan.viewChanges == [.asset(old: library.located(a), new: library.located(a)),
                                     .asset(old: library.located(c), new: library.located(c))])
        #expect(plan.acts == SettleActs(derivatives: .members([10, 30])))
    }

    @Test("an app whose view the selection does not shape has no view changes, but its selection is kept for when it is limited")
    func notLimited() {
        let a = library.asset(1, in: 2)
        let plan = SelectionPlan.decide(SelectionPlan.Edit(app: library.app(.authorized), assets: [a], albums: [], adding: true),
                                        grants: library.grants(), inAlbumsNamed: [], tree: library.tree)
        #expect(plan.changedAssets == [a] && plan.added == [a.id])
        #expect(plan.viewChanges.isEmpty)
    }

    @Test("an asset the tree can no longer place is selected, but touches no view")
    func unplaced() {
        let gone = library.asset(5, in: 77)
        let plan = SelectionPlan.decide(SelectionPlan.Edit(app: library.app(), assets: [gone], albums: [], adding: true),
                                        grants: library.grants(), inAlbumsNamed: [], tree: library.tree)
        #expect(plan.assetRows == [5] && plan.changedAssets == [gone])
        #expect(plan.touched.isEmpty && plan.added.isEmpty)
    }
}
