import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem
import Synchronization
import Testing

/// A watch batch's look at the library is made on a thread of its own: while the library does
/// not answer, the engine answers other changes, and the batch goes on once it does.
@Suite("A batch's probe, off the engine")
struct EngineProbeTests {
    static let viewer = AppID("org.example.Viewer")!
    static let other = AppID("org.example.Other")!

    /// An engine over `Trip/a.jpg` and `c.jpg` whose probes look through `held`; the viewer limited to `Trip`, the other app registered.
    func engine(_ held: HeldLibrary) async throws -> (TemporaryEngine, AppRecord) {
        // As for a library on a network or FUSE filesystem, whose server can stop answering.
        let fixture = try await TemporaryEngine(libraryLooker: held.looker, isolateLibrary: true)
        for name in ["Trip/a.jpg", "c.jpg"] { try fixture.write(name, "photo \(name)") }
        try await fixture.engine.rescanAndReconcile()
        let app = try await fixture.engine.addApp(Self.viewer, uid: getuid(), purpose: "Shows photos", location: .precise)
        _ = try await fixture.engine.authorize(Self.viewer, access: .readWrite, status: .limited, by: TemporaryEngine.owner)
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named([], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        _ = try await fixture.engine.addApp(Self.other, uid: getuid(), purpose: "Prints photos", location: .precise)
        _ = fixture.published.take()
        fixture.audit.reset()
        return (fixture, app)
    }

    /// Waits until a probe is held in the library (a batch is looking at it), up to 60 s.
    func waitForHeldLook(_ held: HeldLibrary) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while held.waiters == 0 {
            guard ContinuousClock.now < deadline else {
                held.release()
                Issue.record("the batch never looked at the library")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("while a batch's look at the library does not come back, another app's request and a selection edit are answered; the batch goes on when it does")
    func heldLibrary() async throws {
        let held = HeldLibrary()
        defer { held.release() }
        let (fixture, app) = try await engine(held)
        try fixture.write("Trip/new.jpg", "a new photo")
        held.hold()
        let engine = fixture.engine
        let batch = Task { await engine.process([.fileWritten(TemporaryEngine.path("Trip/new.jpg"))]) }
        try await waitForHeldLook(held)

        let asked = try await answered("another app's request", releasing: held) {
            try await engine.ask(Self.other, kind: .authorization(.readWrite), waiter: nil)
        }
        #expect(asked.request != nil && asked.state == "pending")
        let named = try fixture.named(["c.jpg"])
        let edited = try await answered("a selection edit", releasing: held) {
            try await engine.editSelection(Self.viewer, named, adding: true, by: TemporaryEngine.owner)
        }
        #expect(edited.assets.count == 1)
        #expect(try fixture.view(of: app).count == 2, "a.jpg and c.jpg: the new photo is not in before its batch is applied")
        #expect(held.waiters > 0, "the batch is still looking")
        let meanwhile = fixture.published.take()
        #expect(meanwhile.contains { $0.contains("\"pending\"") } && meanwhile.contains { $0.contains("\"selection\"") }, "\(meanwhile)")
        #expect(meanwhile.filter { $0.contains("\"event\":\"change\"") }.count == 1, "c.jpg's, and not the batch's: \(meanwhile)")

        held.release()
        _ = await batch.value
        #expect(try fixture.view(of: app).count == 3, "a.jpg, c.jpg and the new photo")
        #expect(fixture.published.take().contains { $0.contains("\"inserted\"") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a change that comes in while a batch is probed lands the last batch's links first: its view is touched by one hand, and the apps hear the batch first")
    func tailLandsFirst() async throws {
        let held = HeldLibrary()
        defer { held.release() }
        let (fixture, app) = try await engine(held)
        let engine = fixture.engine
        try fixture.write("Trip/one.jpg", "one")
        try fixture.write("Trip/two.jpg", "two")
        // More waits in the queue: the first batch's links are made on another thread, and it is settled when they land.
        engine.queue.push(.fileWritten(TemporaryEngine.path("Trip/two.jpg")))
        await engine.process([.fileWritten(TemporaryEngine.path("Trip/one.jpg"))])
        #expect(await engine.hasTailInFlight, "the first batch is in flight")
        #expect(fixture.published.take().isEmpty, "and not heard yet")

        held.hold()
        let batch = Task { await engine.process(engine.queue.take(maximum: 10)) }
        try await waitForHeldLook(held)
        _ = try await answered("another app's request", releasing: held) {
            try await engine.ask(Self.other, kind: .authorization(.readWrite), waiter: nil)
        }
        #expect(!(await engine.hasTailInFlight), "landed before the request was settled")
        #expect(try fixture.view(of: app).count == 2, "a.jpg and one.jpg")
        let heard = fixture.published.take()
        let inserted = heard.firstIndex { $0.contains("\"inserted\"") }
        let pending = heard.firstIndex { $0.contains("\"pending\"") }
        #expect(inserted != nil && pending != nil && inserted! < pending!, "the batch, then the request: \(heard)")

        held.release()
        _ = await batch.value
        await engine.landTailOrRescan()
        #expect(try fixture.view(of: app).count == 3, "a.jpg, one.jpg and two.jpg")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("an import waits for a batch between its look at the library and its commit: the batch never takes the placed copy for gone")
    func importWaitsForTheBatch() async throws {
        let held = HeldLibrary()
        defer { held.release() }
        let (fixture, app) = try await engine(held)
        let engine = fixture.engine
        let inbox = fixture.root + "/state/inboxes/" + app.viewName.description
        try FileManager.default.createDirectory(atPath: fixture.library + "/Imported/org.example.Viewer", withIntermediateDirectories: true)
        try fixture.write("late.jpg")
        // The batch lists Imported/ (empty) first, then waits at its look at late.jpg.
        held.hold(at: TemporaryEngine.path("late.jpg"))
        let batch = Task {
            await engine.process([.directoryCreated(TemporaryEngine.path("Imported")), .fileWritten(TemporaryEngine.path("late.jpg"))])
        }
        try await waitForHeldLook(held)

        try await FileManager.default.copyItem(atPath: try fixture.media("plain.jpg"), toPath: inbox + "/beach.jpg")
        let imported = Task { await engine.receive(InboxWatcher.Arrival(app: Self.viewer, name: FileName("beach.jpg")!)) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(!FileManager.default.fileExists(atPath: fixture.library + "/Imported/org.example.Viewer/beach.jpg"),
                "copied, but not placed while the batch's look stands")

        held.release()
        _ = await batch.value
        _ = await imported.value
        #expect(FileManager.default.fileExists(atPath: fixture.library + "/Imported/org.example.Viewer/beach.jpg"))
        #expect(try fixture.view(of: app).count == 2, "a.jpg, and the import, which joined the selection")
        let record = try fixture.store.read { tx in try tx.albumTree().album(at: TemporaryEngine.path("Imported/org.example.Viewer")) }
        #expect(record != nil, "its album is indexed")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a full scan walks the library off the engine: other changes are answered meanwhile, and a rescan asked during the walk is answered by the next scan, not by this one")
    func scanWalkOffTheEngine() async throws {
        let held = HeldLibrary()
        defer { held.release() }
        let (fixture, app) = try await engine(held)
        let engine = fixture.engine
        try fixture.write("Trip/found.jpg", "written while nobody watched")
        held.hold()
        let scan = Task { try await engine.rescanAndReconcile() }
        try await waitForHeldLook(held)

        let asked = try await answered("another app's request during the walk", releasing: held) {
            try await engine.ask(Self.other, kind: .authorization(.readWrite), waiter: nil)
        }
        #expect(asked.request != nil)
        let rescanned = Atomic<Bool>(false)
        let rescan = Task {
            try await engine.rescan { }
            rescanned.store(true, ordering: .sequentiallyConsistent)
        }
        try await Task.sleep(for: .milliseconds(100))
        held.release()
        try await scan.value
        #expect(try fixture.view(of: app).count == 2, "a.jpg and the photo the scan found")
        try await Task.sleep(for: .milliseconds(100))
        let answeredEarly = rescanned.load(ordering: .sequentiallyConsistent)
        #expect(!answeredEarly, "the walk under way began before the rescan was asked")
        try await engine.rescanAndReconcile()
        try await answered("the rescan, once a scan walked after it was asked", releasing: held) { try await rescan.value }
        let answeredAfter = rescanned.load(ordering: .sequentiallyConsistent)
        #expect(answeredAfter)
        #expect(fixture.audit.callsInTransactions == [])
    }
}
