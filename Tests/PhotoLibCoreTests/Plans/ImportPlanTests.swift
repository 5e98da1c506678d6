import PhotoLibCore
import Testing

/// An inbox import's last step, decided once the placed copy is indexed.
@Suite("Import plans")
struct ImportPlanTests {
    let library = PlanFixture()

    @Test("a limited app: the new asset joins its selection; told as a change only when the index recorded none and it was not selected")
    func limited() {
        let asset = library.asset(1, in: 2)
        let fresh = ImportPlan.decide(right: .joinsSelection, asset: asset, alreadySelected: false, indexRecorded: true, tree: library.tree)
        #expect(fresh.selects == 1 && fresh.joinsUnchanged == nil && fresh.state == .added && fresh.tellsAsset)
        let indexedBefore = ImportPlan.decide(right: .joinsSelection, asset: asset, alreadySelected: false, indexRecorded: false,
                                              tree: library.tree)
        #expect(indexedBefore.joinsUnchanged == library.located(asset), "a restart's scan indexed it: the view follows it as a selection edit")
        let selectedBefore = ImportPlan.decide(right: .joinsSelection, asset: asset, alreadySelected: true, indexRecorded: false,
                                               tree: library.tree)
        #expect(selectedBefore.selects == 1 && selectedBefore.joinsUnchanged == nil, "nothing new to tell")
    }

    @Test("an authorized app sees it with the library; an add-only app is told only that it was accepted; an unindexed copy joins nothing")
    func others() {
        let asset = library.asset(1, in: 2)
        let authorized = ImportPlan.decide(right: .seesLibrary, asset: asset, alreadySelected: false, indexRecorded: true, tree: library.tree)
        #expect(authorized.selects == nil && authorized.state == .added && authorized.tellsAsset)
        let addOnly = ImportPlan.decide(right: .addOnly, asset: asset, alreadySelected: false, indexRecorded: false, tree: library.tree)
        #expect(addOnly.selects == nil && addOnly.joinsUnchanged == nil && addOnly.state == .accepted && !addOnly.tellsAsset)
        let unindexed = ImportPlan.decide(right: .joinsSelection, asset: nil, alreadySelected: false, indexRecorded: false, tree: library.tree)
        #expect(unindexed.selects == nil && unindexed.joinsUnchanged == nil && unindexed.state == .added)
    }
}
