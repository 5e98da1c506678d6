import PhotoLibCore
import Testing

/// A timer's work that fails round after round is told once when it starts failing and once when it works again.
@Suite("Failure spells")
struct FailureSpellTests {
    @Test("the first failure of a spell is told, the rest are not; the round that works tells how many failed")
    func spell() {
        var spell = FailureSpell()
        var told: [String] = []
        func failed() { if spell.failed() { told.append("failing") } }
        func worked() { if let rounds = spell.succeeded() { told.append("recovered after \(rounds)") } }
        worked()
        failed()
        failed()
        failed()
        worked()
        worked()
        failed()
        #expect(told == ["failing", "recovered after 3", "failing"])
        #expect(spell.failedRounds == 1)
    }
}
