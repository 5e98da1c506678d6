import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibSystem
import Synchronization
import Testing

/// Each kind of change through the engine, on a temporary library and an in-memory store: what the
/// view holds after it settles, what is published, and that no write transaction made a system call.
@Suite("The engine's changes, committed and settled")
struct EngineCommitTests {
    static let viewer = AppID("org.example.Viewer")!

    /// An engine over `Trip/a.jpg`, `Trip/b.jpg` and `c.jpg`, scanned, with the viewer registered and limited.
    func limitedViewer(location: LocationPolicy = .precise) async throws -> (TemporaryEngine, AppRecord) {
        let fixture = try await TemporaryEngine()
        for name in ["Trip/a.jpg", "Trip/b.jpg", "c.jpg"] { try fixture.write(name, "photo \(name)") }
        try await fixture.engine.rescanAndReconcile()
        let app = try await fixture.engine.addApp(Self.viewer, uid: getuid(), purpose: "Shows photos", location: location)
        _ = try await fixture.engine.authorize(Self.viewer, access: .readWrite, status: .limited, by: TemporaryEngine.owner)
        _ = fixture.published.take()
        fixture.audit.reset()
        return (fixture, app)
    }

    @Test("a selection edit links what it adds and unlinks what it removes, and the app hears both")
    func selectionEdit() async throws {
        let (fixture, app) = try await limitedViewer()
        let added = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["Trip/a.jpg", "c.jpg"], []), adding: true,
                                                           by: TemporaryEngine.owner)
        #expect(added.assets.count == 2)
        #expect(try fixture.view(of: app).count == 2)
        let heard = fixture.published.take()
        #expect(heard.contains { $0.contains("\"selection\"") } && heard.contains { $0.contains("\"inserted\"") }, "\(heard)")

        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["c.jpg"], []), adding: false, by: TemporaryEngine.owner)
        #expect(try fixture.view(of: app).count == 1)
        #expect(fixture.published.take().contains { $0.contains("\"removed\"") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a watch batch: a photo written into a selected album joins the view, one removed leaves it, and the app hears each")
    func watchBatch() async throws {
        let (fixture, app) = try await limitedViewer()
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named([], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        #expect(try fixture.view(of: app).count == 2)
        _ = fixture.published.take()
        fixture.audit.reset()

        try fixture.write("Trip/new.jpg", "a new photo")
        unlink(fixture.library + "/Trip/b.jpg")
        await fixture.engine.process([.fileWritten(TemporaryEngine.path("Trip/new.jpg")),
                                      .removed(TemporaryEngine.path("Trip/b.jpg"), isDirectory: false)])
        #expect(try fixture.view(of: app).count == 2, "a.jpg and new.jpg")
        let heard = fixture.published.take()
        #expect(heard.contains { $0.contains("\"inserted\"") } && heard.contains { $0.contains("\"removed\"") }, "\(heard)")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a grant's end: once the clock passes it, the photo leaves the view and the app hears it expired")
    func grantEnd() async throws {
        let (fixture, app) = try await limitedViewer()
        let now = fixture.clock.now()
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["c.jpg"], []), adding: true, by: TemporaryEngine.owner,
                                                   endsAt: now + 60)
        #expect(try fixture.view(of: app).count == 1)
        #expect(await fixture.engine.expireGrants() == now + 60, "the next end")
        #expect(try fixture.view(of: app).count == 1, "not yet")
        _ = fixture.published.take()

        fixture.clock.seconds.store(now + 61, ordering: .relaxed)
        #expect(await fixture.engine.expireGrants() == nil)
        #expect(try fixture.view(of: app).isEmpty)
        #expect(fixture.published.take().contains { $0.contains("\"expired\"") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a request: asked, published as pending; answered with a photo, the app becomes limited with it and the answer is published")
    func request() async throws {
        let fixture = try await TemporaryEngine()
        try fixture.write("c.jpg")
        try await fixture.engine.rescanAndReconcile()
        let app = try await fixture.engine.addApp(Self.viewer, uid: getuid(), purpose: "Shows photos", location: .precise)
        fixture.audit.reset()
        let asked = try await fixture.engine.ask(Self.viewer, kind: .authorization(.readWrite), waiter: nil)
        let request = try #require(asked.request)
        #expect(fixture.published.take().contains { $0.contains("\"pending\"") })

        let answered = try await fixture.engine.answer(request, with: .limited, try fixture.named(["c.jpg"], []), by: TemporaryEngine.owner)
        #expect(answered.status == AuthorizationStatus.limited.rawValue)
        #expect(try fixture.view(of: app).count == 1)
        #expect(fixture.published.take().contains { $0.contains("\"answered\"") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a change composed of others is one transaction and one settle: an authorization answered limited with photos; a photo's, an album's and a status's grants ending together")
    func composedChanges() async throws {
        let fixture = try await TemporaryEngine()
        for name in ["Trip/a.jpg", "Trip/b.jpg", "c.jpg", "d.jpg"] { try fixture.write(name, "photo \(name)") }
        try await fixture.engine.rescanAndReconcile()
        let app = try await fixture.engine.addApp(Self.viewer, uid: getuid(), purpose: "Shows photos", location: .precise)
        let request = try #require(try await fixture.engine.ask(Self.viewer, kind: .authorization(.readWrite), waiter: nil).request)
        _ = fixture.published.take()
        fixture.audit.reset()
        _ = fixture.published.takePublishes()

        // Answered limited with a photo: the selection and the status in one transaction, one settle.
        let answered = try await fixture.engine.answer(request, with: .limited, try fixture.named(["c.jpg"], []), by: TemporaryEngine.owner)
        #expect(answered.status == AuthorizationStatus.limited.rawValue && answered.addedAssets?.count == 1, "\(answered)")
        #expect(fixture.audit.transactions == 1, "one write transaction, not one per part")
        #expect(fixture.published.takePublishes() == 1, "one settle")
        #expect(try fixture.view(of: app).count == 1)
        let heard = fixture.published.take().joined(separator: "\n")
        #expect(heard.contains("\"selection\"") && heard.contains("\"authorization\"") && heard.contains("\"answered\""), "\(heard)")

        // Timed: a photo, an album and Full Access, all ending at the same second.
        let now = fixture.clock.now()
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["d.jpg"], ["Trip"]), adding: true, by: TemporaryEngine.owner,
                                                   endsAt: now + 60)
        _ = try await fixture.engine.authorize(Self.viewer, access: .readWrite, status: .authorized, by: TemporaryEngine.owner, endsAt: now + 60)
        #expect(try fixture.view(of: app).count == 4, "everything while authorized")
        _ = fixture.published.take()
        fixture.audit.reset()
        _ = fixture.published.takePublishes()
        fixture.clock.seconds.store(now + 61, ordering: .relaxed)
        #expect(await fixture.engine.expireGrants() == nil)
        #expect(fixture.audit.transactions == 1, "the three ends in one write transaction")
        #expect(fixture.published.takePublishes() == 1, "and one settle")
        #expect(try fixture.view(of: app).count == 1, "limited again, with c.jpg alone")
        let ended = fixture.published.take().joined(separator: "\n")
        #expect(ended.contains("\"expired\"") && ended.contains("\"limited\""), "\(ended)")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("an app without location: a geotagged photo written into its album reaches its view as a copy without location")
    func withoutLocation() async throws {
        let (fixture, app) = try await limitedViewer(location: .none)
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named([], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        fixture.audit.reset()
        try await fixture.writeGeotagged("Trip/geo.jpg")
        await fixture.engine.process([.fileWritten(TemporaryEngine.path("Trip/geo.jpg"))])
        #expect(try fixture.view(of: app).count == 3)
        func inode(_ path: String) -> UInt64 {
            var status = stat()
            return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
        }
        let originals = Set(["Trip/a.jpg", "Trip/b.jpg", "Trip/geo.jpg"].map { inode(fixture.library + "/" + $0) })
        let copies = try fixture.view(of: app).filter { !originals.contains(inode(fixture.root + "/views/" + app.viewName.description + "/" + $0)) }
        #expect(copies.count == 1, "the geotagged photo's entry is a copy without location; the others link their originals")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("an app without location, its copies already made: a photo renamed, one deselected and selected again, one removed; each transaction decides from what is known and looks at nothing")
    func withoutLocationCopiesKnown() async throws {
        let (fixture, app) = try await limitedViewer(location: .none)
        try await fixture.writeGeotagged("Trip/geo.jpg")
        try await fixture.writeGeotagged("Far/far.jpg")
        await fixture.engine.process([.fileWritten(TemporaryEngine.path("Trip/geo.jpg")), .directoryCreated(TemporaryEngine.path("Far"))])
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["Far/far.jpg"], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        // Entries are named by the app's IDs: a copy is one whose inode is no original's.
        func copies() throws -> Int {
            func inode(_ path: String) -> UInt64 {
                var status = stat()
                return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
            }
            let originals = Set(["Trip/a.jpg", "Trip/b.jpg", "Trip/geo.jpg", "Trip/renamed.jpg", "Far/far.jpg"].map { inode(fixture.library + "/" + $0) })
            return try fixture.view(of: app).filter { !originals.contains(inode(fixture.root + "/views/" + app.viewName.description + "/" + $0)) }.count
        }
        let first = try fixture.view(of: app)
        #expect(try first.count == 4 && copies() == 2, "a, b and two copies without location: \(first)")
        fixture.audit.reset()

        rename(fixture.library + "/Trip/geo.jpg", fixture.library + "/Trip/renamed.jpg")
        await fixture.engine.process([.moved(from: TemporaryEngine.path("Trip/geo.jpg"), to: TemporaryEngine.path("Trip/renamed.jpg"), isDirectory: false)])
        #expect(fixture.audit.callsInTransactions == [], "a renamed photo with a copy")
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["Far/far.jpg"], []), adding: false, by: TemporaryEngine.owner)
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named(["Far/far.jpg"], []), adding: true, by: TemporaryEngine.owner)
        #expect(fixture.audit.callsInTransactions == [], "a photo with a copy deselected and selected again")
        unlink(fixture.library + "/Trip/renamed.jpg")
        await fixture.engine.process([.removed(TemporaryEngine.path("Trip/renamed.jpg"), isDirectory: false)])
        #expect(fixture.audit.callsInTransactions == [], "a photo with a copy removed")
        let last = try fixture.view(of: app)
        #expect(try last.count == 3 && copies() == 1, "\(last)")
        let heard = fixture.published.take().joined(separator: "\n")
        #expect(heard.contains("\"removed\""), "\(heard)")
    }

    @Test("an import: a photo a limited app drops in its inbox is placed in Imported/<app>, joins its selection and view, and the app hears it added")
    func importFromInbox() async throws {
        let (fixture, app) = try await limitedViewer()
        let inbox = fixture.root + "/state/inboxes/" + app.viewName.description
        try await FileManager.default.copyItem(atPath: try fixture.media("plain.jpg"), toPath: inbox + "/beach.jpg")
        await fixture.engine.receive(InboxWatcher.Arrival(app: Self.viewer, name: FileName("beach.jpg")!))
        #expect(FileManager.default.fileExists(atPath: fixture.library + "/Imported/org.example.Viewer/beach.jpg"))
        #expect(!FileManager.default.fileExists(atPath: inbox + "/beach.jpg"), "taken from the inbox once indexed")
        #expect(try fixture.view(of: app).count == 1)
        let heard = fixture.published.take()
        #expect(heard.contains { $0.contains("\"import\"") && $0.contains("\"added\"") }, "\(heard)")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a rule grant: every photo taken in its span joins the view (capture times read before the transaction), and the app is told to reload")
    func ruleGrant() async throws {
        let (fixture, app) = try await limitedViewer()
        _ = try await fixture.engine.addRule(Self.viewer, from: 0, to: fixture.clock.now(), mediaType: nil)
        #expect(try fixture.view(of: app).count == 3, "files without a date in them are taken when they were last written")
        #expect(fixture.published.take().contains { $0.contains("\"incremental\":false") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("an album renamed: its photos keep their IDs and their place in the view of the app it is selected for")
    func albumRenamed() async throws {
        let (fixture, app) = try await limitedViewer()
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named([], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        let before = try fixture.view(of: app)
        _ = fixture.published.take()
        fixture.audit.reset()
        rename(fixture.library + "/Trip", fixture.library + "/Journey")
        await fixture.engine.process([.moved(from: TemporaryEngine.path("Trip"), to: TemporaryEngine.path("Journey"), isDirectory: true)])
        #expect(try fixture.view(of: app) == before, "the same entries: the selection follows the album")
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("authorize on its own: Full Access links every photo, None takes them all away, and the app hears each")
    func authorizeAlone() async throws {
        let (fixture, app) = try await limitedViewer()
        _ = try await fixture.engine.authorize(Self.viewer, access: .readWrite, status: .authorized, by: TemporaryEngine.owner)
        #expect(try fixture.view(of: app).count == 3)
        _ = try await fixture.engine.authorize(Self.viewer, access: .readWrite, status: .denied, by: TemporaryEngine.owner)
        #expect(try fixture.view(of: app).isEmpty)
        let heard = fixture.published.take().joined(separator: "\n")
        #expect(heard.contains("\"authorized\"") && heard.contains("\"denied\""), "\(heard)")
        #expect(fixture.audit.transactions >= 2)
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("the location and captions settings: an app set to location none has its geotagged photo's entry replaced by a copy without location (looked at after the commit), and hears to reload; captions change nothing on disk")
    func locationAndCaptions() async throws {
        let (fixture, app) = try await limitedViewer()
        try await fixture.writeGeotagged("Trip/geo.jpg")
        await fixture.engine.process([.fileWritten(TemporaryEngine.path("Trip/geo.jpg"))])
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named([], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        func inode(_ path: String) -> UInt64 {
            var status = stat()
            return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
        }
        let originals = Set(["Trip/a.jpg", "Trip/b.jpg", "Trip/geo.jpg"].map { inode(fixture.library + "/" + $0) })
        func copies() throws -> Int {
            try fixture.view(of: app).filter { !originals.contains(inode(fixture.root + "/views/" + app.viewName.description + "/" + $0)) }.count
        }
        #expect(try copies() == 0)
        _ = fixture.published.take()
        fixture.audit.reset()
        _ = try await fixture.engine.setLocation(Self.viewer, .none)
        #expect(try fixture.view(of: app).count == 3 && copies() == 1)
        #expect(fixture.published.take().contains { $0.contains("\"incremental\":false") })
        _ = try await fixture.engine.setCaptions(Self.viewer, shared: false)
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("removing an app takes its view away and cancels its pending requests")
    func removeApp() async throws {
        let (fixture, app) = try await limitedViewer()
        _ = try await fixture.engine.ask(Self.viewer, kind: .review, waiter: nil)
        _ = fixture.published.take()
        try await fixture.engine.removeApp(Self.viewer)
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/views/" + app.viewName.description))
        #expect(fixture.published.take().contains { $0.contains("\"cancelled\"") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a pick: asked, published as pending; answered, the app's connection receives the photo once, no view entry is made, the answer is published")
    func pick() async throws {
        let (fixture, app) = try await limitedViewer()
        let received = Mutex<(PickResult?, Int)>((nil, 0))
        let waiter = PickWaiter(connection: ObjectIdentifier(fixture), peerUID: getuid(), isOpen: { true }) { result, files in
            received.withLock { $0 = (result, files.count) }
            for file in files { file.close() }
        }
        let request = try await fixture.engine.askPick(Self.viewer, options: PickOptions(), notify: false, waiter: waiter)
        #expect(fixture.published.take().contains { $0.contains("\"pending\"") })

        let outcome = try await fixture.engine.answerPick(request, try fixture.named(["Trip/a.jpg"]))
        #expect(outcome.pickedAssets?.count == 1)
        let (result, descriptors) = received.withLock { $0 }
        #expect(result?.state == "picked" && result?.assets.first?.files.first?.name == "a.jpg", "\(String(describing: result))")
        #expect(result?.assets.first?.files.first?.copy == true, "an app on the owner's uid (a Flatpak app) gets a private copy, never the original it could write")
        #expect(descriptors == 1)
        #expect(try fixture.view(of: app).isEmpty, "a pick makes no view entry")
        #expect(fixture.published.take().contains { $0.contains("\"answered\"") })
        #expect(fixture.audit.callsInTransactions == [])
    }

    @Test("a rescan: files written and removed while nobody watched reach the view and are published; the walk is made before its transaction, which makes no system call")
    func rescan() async throws {
        let (fixture, app) = try await limitedViewer()
        _ = try await fixture.engine.editSelection(Self.viewer, try fixture.named([], ["Trip"]), adding: true, by: TemporaryEngine.owner)
        _ = fixture.published.take()
        fixture.audit.reset()

        try fixture.write("Trip/while-away.jpg", "a photo nobody saw arrive")
        unlink(fixture.library + "/Trip/a.jpg")
        try await fixture.engine.rescanAndReconcile()
        #expect(try fixture.view(of: app).count == 2, "b.jpg and while-away.jpg (entries are named by the app's asset IDs)")
        let heard = fixture.published.take()
        #expect(heard.contains { $0.contains("\"inserted\"") } && heard.contains { $0.contains("\"removed\"") }, "\(heard)")
        #expect(fixture.audit.callsInTransactions == [], "the walk, and every descriptor it opened, ended before the transaction")
    }
}
