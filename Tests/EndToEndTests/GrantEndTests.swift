import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// Grants that end by themselves (SPEC §9): `select … --for`, `--until`,
/// `authorize … --for`, with the daemon run by the library's owner.
@Suite("Grants that end", .serialized)
struct GrantEndTests {
    static let app = "org.example.Frame"

    func now() -> Double { Date().timeIntervalSince1970 }

    /// The next event of `kind` whose `reason` is `expired`, and when it came.
    func nextExpired(_ reader: EventReader, _ kind: String) async throws -> (event: ReceivedEvent, at: Double) {
        while true {
            let (event, at) = try await reader.nextWithArrival()
            guard event.head.event == kind else { continue }
            let reason: String? = switch kind {
            case "selection": try event.decode(SelectionEvent.self).reason
            case "authorization": try event.decode(AuthorizationEvent.self).reason
            default: try event.decode(ChangeEvent.self).reason
            }
            if reason == "expired" { return (event, at) }
        }
    }

    @Test("a selection for 6 s ends on time: its link goes and the app hears why; what lasts stays")
    func selectionEndsOnTime() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg")
            try lib.write("b.jpg")
        }
        try await daemon.addApp(Self.app, "limited")
        let ids = try await daemon.assets()
        let a = try #require(ids["a.jpg"]), b = try #require(ids["b.jpg"])
        // What the app sees and hears names the photos by its own IDs.
        let shown = try await daemon.appIDs(Self.app)
        let appA = try #require(shown["a.jpg"]), appB = try #require(shown["b.jpg"])
        try await daemon.ok("select", Self.app, "b.jpg")
        let reader = try EventReader(daemon, app: Self.app)
        let granted = now()
        try await daemon.ok("select", Self.app, "a.jpg", "--for", "6s")
        let selected = now()
        // Heard as they come, while the test looks at the grant: its looks take seconds on a loaded machine.
        // (With 2 s, CI spent them all before the first look, and the photo had left the view already.)
        let hearing = Task { (try await nextExpired(reader, "selection"), try await nextExpired(reader, "change")) }
        let selection = try await JSONDecoder().decode(SelectionResult.self, from: Data(try daemon.ok("selection", Self.app, "--json").utf8))
        let endsAt = try #require(selection.ends?.assets[a])
        // The daemon takes its second when the select reaches it, somewhere between the command's start and
        // its reply (under `make test`'s load a command once took more than a second to get there).
        #expect(Double(endsAt) >= granted + 5 && Double(endsAt) <= selected + 7, "the end is 6 s after the select")
        #expect(selection.ends?.assets[b] == nil, "a grant without --for lasts")
        // In the view until its end: a listing made before the end holds it. Under `make test`'s load the
        // commands above once took more than the grant's 6 s, and the look came after its end, where the
        // photo has rightly gone; the end itself is checked below.
        let entries = await daemon.viewEntries(Self.app)
        if now() < Double(endsAt) - 0.1 {
            #expect(entries.contains { $0.contains(appA) }, "in the view before its end")
        }

        // The selection event first, then the view's change, both saying why.
        let ((event, at), (change, _)) = try await hearing.value
        #expect(try event.decode(SelectionEvent.self).removedAssets == [appA])
        #expect(at >= Double(endsAt) - 0.05, "not before its end")
        // Within 20 s: the daemon's whole second, and a loaded machine's delay in the test's own hearing of it
        // (`make test`'s load made it 5.3 s once and 9.2 s another time, beside the HEIC and Load suites); a
        // daemon that looked for ends only now and then (a minute's sweep, the next change) misses it. The
        // alarm's exactness is ExpiryAlarm's unit tests'.
        #expect(at <= Double(endsAt) + 20, "at its end (within the daemon's second and a loaded machine's delay)")
        #expect(try change.decode(ChangeEvent.self).removed.map(\.id) == [appA])
        #expect(await !daemon.viewEntries(Self.app).contains { $0.contains(appA) })
        #expect(await daemon.viewEntries(Self.app).contains { $0.contains(appB) })
        #expect(await !(try daemon.ok("selection", Self.app)).contains(a))

        // --until in the past is refused with the reason; --for and --until together too.
        let past = try await daemon.ctl("select", Self.app, "a.jpg", "--until", "@1000")
        #expect(past.status != 0 && past.stderr.contains("time to come"), "\(past)")
        let both = try await daemon.ctl("select", Self.app, "a.jpg", "--for", "1h", "--until", "@\(Int(now()) + 60)")
        #expect(both.status != 0)
        let nonsense = try await daemon.ctl("select", Self.app, "a.jpg", "--for", "2 fortnights")
        #expect(nonsense.status != 0 && nonsense.stderr.contains("not a duration"), "\(nonsense)")
    }

    @Test("a status for 6 s returns to what it was, with the reason; the view follows")
    func statusEndsOnTime() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in try lib.write("a.jpg") }
        try await daemon.addApp(Self.app, "limited")
        let reader = try EventReader(daemon, app: Self.app)
        try await daemon.ok("authorize", Self.app, "authorized", "--for", "6s")
        let hearing = Task { try await nextExpired(reader, "authorization") }
        // The reply comes once the view is made: looked at at once, while the status lasts. (With 2 s, a
        // loaded CI machine once spent them all before the first look, and the view was already empty again.)
        #expect(await daemon.viewEntries(Self.app).count == 1, "the whole library in the view")
        let info = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first)
        #expect(info.readWrite == "authorized" && info.readWriteReturnsTo == "limited" && info.readWriteEndsAt != nil)
        let (event, at) = try await hearing.value
        #expect(try event.decode(AuthorizationEvent.self).status == "limited")
        #expect(at <= Double(try #require(info.readWriteEndsAt)) + 8, "at its end, as the selection's above")
        try await waitUntil("the view to be the empty selection again") { await daemon.viewEntries(Self.app).isEmpty }
        let after = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first)
        #expect(after.readWrite == "limited" && after.readWriteEndsAt == nil)
    }

    @Test("a grant that ended while the daemon was stopped is gone when it is ready, and the app hears it on resuming")
    func endsAcrossARestart() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in try lib.write("a.jpg") }
        try await daemon.addApp(Self.app, "limited")
        let a = try #require(try await daemon.assets()["a.jpg"])
        let token = try EventReader(daemon, app: Self.app).subscribed.token
        try await daemon.ok("select", Self.app, "a.jpg", "--for", "4s")
        // Its end is at most 4 s after the reply, in whole seconds: not asked for, since a look after the reply
        // took longer than 2 s on a loaded machine, and found the grant already ended.
        let endsBy = (now() + 4).rounded(.up)
        await daemon.stop()
        try await waitUntil("the grant's end to pass while the daemon is stopped", timeout: 10) { now() > endsBy + 0.2 }
        try await daemon.start()
        #expect(await !(try daemon.ok("selection", Self.app)).contains(a))
        #expect(await daemon.viewEntries(Self.app).isEmpty, "no link at start")
        let reader = try EventReader(daemon, app: Self.app, since: token)
        let (event, _) = try await nextExpired(reader, "selection")
        #expect(try await event.decode(SelectionEvent.self).removedAssets == [try #require(try daemon.appIDs(Self.app)["a.jpg"])])
    }
}
