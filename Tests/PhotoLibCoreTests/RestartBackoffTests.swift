import PhotoLibCore
import Testing

@Suite("Restarting a helper that keeps ending")
struct RestartBackoffTests {
    @Test("one that ends at once waits 1 s, then 2, 4 … up to 60; one that lived 30 s is replaced at once and resets the wait")
    func backoff() {
        var backoff = RestartBackoff()
        #expect((0..<9).map { _ in backoff.ended(after: 0.2) } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(backoff.quickEnds == 9)
        #expect(backoff.ended(after: 45) == 0, "a helper that ran a while is not failing")
        #expect(backoff.quickEnds == 0)
        #expect(backoff.ended(after: 29.9) == 1, "short again: the wait starts over, not where it was")
    }

    @Test("a start that fails counts as a helper that ended at once")
    func failedStarts() {
        var backoff = RestartBackoff()
        #expect(backoff.failedToStart() == 1)
        #expect(backoff.ended(after: 0.1) == 2)
        #expect(backoff.failedToStart() == 4)
    }
}
