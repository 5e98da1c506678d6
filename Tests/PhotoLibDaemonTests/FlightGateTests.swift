import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import Testing

/// A burst's links are made on other threads while the next batch is indexed; that batch waits for
/// them before it touches a view, holding no thread, and no other change settles in between.
@Suite("A batch's links, awaited without a thread")
struct FlightGateTests {
    static let viewer = AppID("org.example.Viewer")!
    static let other = AppID("org.example.Other")!

    @Test("while the last batch's links are not made, the next batch waits for them holding no thread: the engine answers, a change waits its turn, and all settle in order")
    func heldFlight() async throws {
        let held = HeldLibrary()
        defer { held.release() }
        let fixture = try await TemporaryEngine()
        let engine = fixture.engine
        try fixture.write("Burst/a0.jpg", "first")
        try await engine.rescanAndReconcile()
        let app = try await engine.addApp(Self.viewer, uid: getuid(), purpose: "Shows photos", location: .precise)
        _ = try await engine.authorize(Self.viewer, access: .readWrite, status: .limited, by: TemporaryEngine.owner)
        _ = try await engine.editSelection(Self.viewer, try fixture.named([], ["Burst"]), adding: true, by: TemporaryEngine.owner)
        _ = try await engine.addApp(Self.other, uid: getuid(), purpose: "Prints photos", location: .precise)
        let flightHold = held.flight
        _ = try await engine.change { $0.views.beforeFlight = flightHold }
        _ = fixture.published.take()

        // Batch A, with batch B queued behind it: A's links fly, held like a disk slow to take them.
        for index in 1...3 { try fixture.write("Burst/a\(index).jpg", "photo a\(index)") }
        try fixture.write("Burst/b1.jpg", "photo b1")
        fixture.queue.push(.fileWritten(TemporaryEngine.path("Burst/b1.jpg")))
        held.hold()
        await engine.process((1...3).map { .fileWritten(TemporaryEngine.path("Burst/a\($0).jpg")) })
        #expect(await engine.hasTailInFlight, "A's links are in flight")
        let queued = fixture.queue.take(maximum: 100)
        let batchB = Task { await engine.process(queued) }
        // B, committed, waits for A's links; the engine is not held by that wait: it answers.
        let waiting = try await answered("the engine, while a batch waits for the last one's links", releasing: held) {
            let deadline = ContinuousClock.now + .seconds(50)
            while await !engine.isWaitingForLinks {
                guard ContinuousClock.now < deadline else { return false }
                try await Task.sleep(for: .milliseconds(5))
            }
            await engine.ping()
            return true
        }
        #expect(waiting, "B, committed, waits for A's links")
        // A change that comes now waits until both batches are settled.
        let asked = Task {
            try await engine.change { try $0.ask(Self.other, kind: .authorization(.readWrite), waiter: nil) }
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.published.take().isEmpty, "nothing is settled while A's links are held")

        held.release()
        _ = await batchB.value
        let outcome = try await asked.value
        #expect(outcome.state == "pending")
        let events = fixture.published.take()
        let requestAt = events.firstIndex { $0.contains("\"request\"") && $0.contains(Self.other.rawValue) }
        let lastChange = events.lastIndex { $0.contains(Self.viewer.rawValue) }
        #expect(requestAt != nil && lastChange != nil && lastChange! < requestAt!, "the batches are settled before the change that came after: \(events)")
        #expect(try fixture.view(of: app).count == 5, "a0, a1-a3 and b1 in the view")
        #expect(await engine.landingsThatWaited == 0, "no landing waited on a thread")
    }
}
