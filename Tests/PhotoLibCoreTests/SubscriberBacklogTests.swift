import Testing
@testable import PhotoLibCore

@Suite("A subscription's backlog: held while catching up, dropped past its budget, reset once drained")
struct SubscriberBacklogTests {
    let photos = AppID("org.example.Photos")!
    let gallery = AppID("org.example.Gallery")!

    @Test("events wait while catching up; going live releases those newer than the delta, and admin events always")
    func catchUp() {
        var backlog = SubscriberBacklog<String>(budgetBytes: 1_000)
        #expect(!backlog.isLive)
        let held = [backlog.admit(app: photos, token: 4, line: "p4", size: 10), backlog.admit(app: photos, token: 6, line: "p6", size: 10),
                    backlog.admit(app: gallery, token: 2, line: "g2", size: 10), backlog.admit(app: photos, token: nil, line: "request", size: 10)]
        #expect(held == [false, false, false, false])
        let released = backlog.goLive(after: [photos: 5, gallery: 2])
        #expect(released.map(\.line) == ["p6", "request"])
        #expect(backlog.isLive)
        #expect(backlog.goLive(after: [:]).isEmpty)
        let live = backlog.admit(app: photos, token: 7, line: "p7", size: 10)
        #expect(live)
    }

    @Test("past the budget events are dropped, nothing more is sent until drained, then one reset per app with its last token")
    func dropAndReset() {
        var backlog = SubscriberBacklog<String>(budgetBytes: 100)
        _ = backlog.goLive(after: [:])
        let first = backlog.admit(app: photos, token: 1, line: "p1", size: 60)
        #expect(first)
        backlog.sending(size: 60)
        let overBudget = backlog.admit(app: photos, token: 2, line: "p2", size: 60)
        #expect(!overBudget, "over the budget: dropped")
        let smallAfterDrop = backlog.admit(app: gallery, token: 9, line: "g9", size: 1)
        #expect(!smallAfterDrop, "after a drop, even a small event waits for the reset")
        let later = backlog.admit(app: photos, token: 3, line: "p3", size: 1)
        let admin = backlog.admit(app: photos, token: nil, line: "admin", size: 1)
        #expect(!later && !admin)
        let resets = backlog.sent(size: 60)
        #expect(resets.map(\.app) == [gallery, photos])
        #expect(resets.map(\.token) == [9, 3])
        #expect(backlog.queuedBytes == 0)
        let again = backlog.sent(size: 0)
        #expect(again.isEmpty, "one reset per drop")
        let resumed = backlog.admit(app: photos, token: 4, line: "p4", size: 60)
        #expect(resumed)
    }

    @Test("no reset until the queue is down to a quarter of the budget")
    func resetWaitsForDrain() {
        var backlog = SubscriberBacklog<String>(budgetBytes: 100)
        _ = backlog.goLive(after: [:])
        for size in [40, 40] {
            let admitted = backlog.admit(app: photos, token: 1, line: "x", size: size)
            #expect(admitted)
            backlog.sending(size: size)
        }
        let dropped = backlog.admit(app: photos, token: 5, line: "p5", size: 40)
        #expect(!dropped)
        let early = backlog.sent(size: 40)
        #expect(early.isEmpty, "40 bytes still queued: over a quarter")
        let drained = backlog.sent(size: 40)
        #expect(drained.map(\.token) == [5])
    }

    @Test("a catch-up that outgrows its limit drops the rest, and resets for them once live and drained")
    func catchUpLimit() {
        var backlog = SubscriberBacklog<Int>(budgetBytes: 100)
        for token in 1...Int64(SubscriberBacklog<Int>.catchUpLimit + 3) {
            _ = backlog.admit(app: photos, token: token, line: Int(token), size: 1)
        }
        let released = backlog.goLive(after: [:])
        #expect(released.count == SubscriberBacklog<Int>.catchUpLimit)
        let pending = backlog.admit(app: photos, token: 20_000, line: 0, size: 1)
        #expect(!pending, "a drop is pending: wait for its reset")
        backlog.sending(size: 1)
        let resets = backlog.sent(size: 1)
        #expect(resets.map(\.token) == [20_000])
    }
}
