import Testing
@testable import PhotoLibCore

@Suite("Handing files over a connection: one transfer at a time, other writes held in order")
struct TransferGateTests {
    @Test("writes pass while idle; during a transfer they and a flush are held, then released in order before the next transfer")
    func holdsAndReleases() {
        var gate = TransferGate<String, Int>()
        let passed = gate.write("reply 1")
        let flushed = gate.flush()
        let started = gate.enqueue(1)
        #expect(passed == "reply 1" && flushed && started == 1 && gate.isHolding)
        let queued = gate.enqueue(2)
        #expect(queued == nil, "one transfer at a time")
        let heldA = gate.write("event a")
        let flushHeld = gate.flush()
        let heldB = gate.write("event b")
        #expect(heldA == nil && !flushHeld && heldB == nil)
        let first = gate.finish()
        #expect(first.ended == 1 && first.released == ["event a", "event b"] && first.flush)
        #expect(first.next == 2 && gate.current == 2)
        let heldC = gate.write("event c")
        #expect(heldC == nil, "the next transfer holds writes again")
        let second = gate.finish()
        #expect(second.ended == 2 && second.released == ["event c"] && !second.flush && second.next == nil)
        #expect(!gate.isHolding)
        let after = gate.write("reply 2")
        #expect(after == "reply 2")
    }

    @Test("finishing with nothing under way does nothing; closing fails what is under way, waiting and held")
    func closeFailsEverything() {
        var gate = TransferGate<String, Int>()
        let idle = gate.finish()
        #expect(idle.ended == nil)
        _ = gate.enqueue(1)
        _ = gate.enqueue(2)
        _ = gate.write("held")
        let closed = gate.close()
        #expect(closed.transfers == [1, 2] && closed.writes == ["held"])
        let nothing = gate.finish()
        #expect(!gate.isHolding && nothing.ended == nil)
        let fresh = gate.enqueue(3)
        #expect(fresh == 3, "a gate closed and used again starts afresh")
    }
}
