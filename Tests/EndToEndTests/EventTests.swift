import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// What a subscribed app hears, over the real socket.
@Suite("Change events", .serialized)
struct EventTests {
    let app = "org.example.Viewer"

    func started() async throws -> RunningDaemon {
        let library = try TestLibrary()
        try library.write("Album/keep.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp(app, "authorized")
        return daemon
    }

    @Test("create, rename, atomic save and delete give exactly the expected change events")
    func libraryChanges() async throws {
        let daemon = try await started()
        let lib = daemon.library
        let events = try EventReader(daemon, app: app)

        try lib.write("Album/new.jpg")
        var change = try await events.nextChange()
        #expect(change.incremental)
        #expect(change.inserted.map(\.entry) == ["Album/new.jpg"])
        #expect(change.removed.isEmpty && change.changed.isEmpty)
        let id = change.inserted[0].id
        #expect(change.token > events.subscribed.token!)

        #expect(rename(lib.path("Album/new.jpg"), lib.path("Album/renamed.jpg")) == 0)
        change = try await events.nextChange()
        #expect(change.changed.map(\.id) == [id])
        #expect(change.changed.map(\.entry) == ["Album/renamed.jpg"])
        #expect(change.inserted.isEmpty && change.removed.isEmpty)

        try lib.write("Album/.renamed.jpg.tmp", contents: "a longer new content")
        #expect(rename(lib.path("Album/.renamed.jpg.tmp"), lib.path("Album/renamed.jpg")) == 0)
        change = try await events.nextChange()
        #expect(change.changed.map(\.id) == [id])
        #expect(change.changed.first?.size == Int64("a longer new content".utf8.count))

        #expect(unlink(lib.path("Album/renamed.jpg")) == 0)
        change = try await events.nextChange()
        #expect(change.removed.map(\.id) == [id])
        #expect(change.inserted.isEmpty && change.changed.isEmpty)
        let last = change.token

        // The view's listing agrees, at the same token.
        let list = try PhotoLibConnection(socketPath: lib.socket).call(.list, OptionalAppParams(app: app), returning: ListResult.self)
        #expect(list.token == last)
        #expect(list.assets.map(\.entry) == ["Album/keep.jpg"])
    }

    @Test("authorization and selection edits are events naming who made them; a limited app hears only its selection")
    func editsAreEvents() async throws {
        let daemon = try await started()
        let events = try EventReader(daemon, app: app)
        try await daemon.ok("authorize", app, "limited")
        let auth = try await events.next()
        #expect(auth.head.event == "authorization")
        let authorization = try auth.decode(AuthorizationEvent.self)
        #expect(authorization.status == "limited")
        #expect(authorization.by == EventActor(uid: getuid(), role: .admin))
        #expect(try await events.nextChange().incremental == false)  // reload: the view changed wholesale

        let id = try await daemon.assets()["Album/keep.jpg"]!
        let shown = try await daemon.appIDs(app)["Album/keep.jpg"]!  // what the app hears: its own ID
        try await daemon.ok("select", app, id)
        let selection = try await events.next().decode(SelectionEvent.self)
        #expect(selection.addedAssets == [shown])
        let change = try await events.nextChange()
        #expect(change.inserted.map(\.entry) == [shown + ".jpg"])

        try daemon.library.write("Album/unselected.jpg")  // not in the selection: nothing to hear
        try await daemon.ok("deselect", app, id)
        #expect(try await events.next().head.event == "selection")
        #expect(try await events.nextChange().removed.map(\.id) == [shown])
    }

    @Test("resuming with since after a daemon restart gives the coalesced changes, then live ones")
    func resumeAfterRestart() async throws {
        let daemon = try await started()
        let lib = daemon.library
        let token: Int64
        do {
            let events = try EventReader(daemon, app: app)
            token = events.subscribed.token!
        }
        try lib.write("Album/a.jpg")
        try lib.write("Album/b.jpg")
        try await waitUntil("both files indexed") { try await daemon.assets().count == 3 }
        #expect(unlink(lib.path("Album/b.jpg")) == 0)   // created and deleted while away: nothing
        #expect(rename(lib.path("Album/a.jpg"), lib.path("Album/a2.jpg")) == 0)
        try await waitUntil("the changes indexed") { await Set(try daemon.assets().keys) == ["Album/keep.jpg", "Album/a2.jpg"] }
        await daemon.stop()
        try await daemon.start()

        let resumed = try EventReader(daemon, app: app, since: token)
        let delta = try await resumed.nextChange()
        #expect(delta.inserted.map(\.entry) == ["Album/a2.jpg"])
        #expect(delta.removed.isEmpty && delta.changed.isEmpty)
        #expect(delta.token == resumed.subscribed.token)
        try lib.write("Album/live.jpg")
        let live = try await resumed.nextChange()
        #expect(live.inserted.map(\.entry) == ["Album/live.jpg"])
        #expect(live.token > delta.token)

        // A token from the future is refused; one older than the history gets a reset.
        #expect(throws: (any Error).self) { try EventReader(daemon, app: app, since: live.token + 100) }
    }

    @Test("a token older than the kept history gets a reset")
    func expiredTokenResets() async throws {
        let library = try TestLibrary()
        let config = library.root + "/photolibd.toml"
        try "[protocol]\nhistory_retention = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", config])
        try await daemon.addApp(app, "authorized")
        for index in 0..<6 {
            try library.write("p\(index).jpg")
            try await waitUntil("file \(index)") { try await daemon.assets().count == index + 1 }
        }
        let events = try EventReader(daemon, app: app, since: 1)
        let reset = try await events.next()
        #expect(reset.head.event == "reset")
        #expect(reset.head.token == events.subscribed.token)
    }

    @Test("an app may only follow its own view")
    func appScope() async throws {
        guard getuid() == 0 else {
            Issue.record("this test runs a client as another uid and must run as root (CI does)")
            return
        }
        let daemon = try await started()
        chmod(daemon.library.root, 0o755)
        try await daemon.ok("app", "add", "org.example.Other", "--uid", "54330")
        let copy = try ReachableCopies.binary("photolibctl")
        let other = try await run("/usr/bin/setpriv", ["--reuid=54330", "--regid=54330", "--clear-groups", copy,
                                                 "watch", app, "--socket", daemon.library.socket])
        #expect(other.status != 0)
        #expect(other.stderr.contains("App org.example.Other may only use its own view"))
    }
}

@Suite("The Python example", .serialized)
struct PythonExampleTests {
    @Test("examples/subscriber.py, standard library alone, keeps a mirror of the view")
    func pythonSubscriber() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp("org.example.Viewer", "authorized")
        let script = RunningDaemon.packageRoot + "/examples/subscriber.py"
        let outputPath = library.root + "/subscriber.out"
        let process = try SpawnedProcess("/usr/bin/python3", [script, "org.example.Viewer", "--socket", library.socket, "--count", "2"],
                                         output: outputPath)
        try await waitUntil("subscriber.py to subscribe", while: process) { process.printed.contains("subscribed at token") }
        try library.write("b.jpg")
        try await waitUntil("b.jpg indexed") { try await daemon.assets().count == 2 }
        #expect(unlink(library.path("a.jpg")) == 0)
        // It ends by itself after its two events.
        let status = await process.exited(timeout: 60)
        #expect(status == 0, "subscriber.py \(status == nil ? "did not end within 60 s of the second change" : process.ending)")
        let text = process.printed
        #expect(text.contains("listed 1 assets"))
        #expect(text.contains("-0 +1 ~0: ['a.jpg', 'b.jpg']"))
        #expect(text.contains("-1 +0 ~0: ['b.jpg']"))
    }
}
