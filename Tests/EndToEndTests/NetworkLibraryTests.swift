import Foundation
import Glibc
import PhotoLibClient
import PhotoLibProtocol
import Testing
import TestSupport

/// A library on a network filesystem: sshfs against OpenSSH's sshd on 127.0.0.1, the daemon run by
/// the library's owner, every change made on the server side (in the exported directory itself, as a
/// NAS's sync would), where inotify on the mount never hears of it.
@Suite("A library on a network filesystem", .serialized)
struct NetworkLibraryTests {
    @Test("a library on sshfs: what changes on the server reaches the index and the view in rounds, a photo renamed there keeping its ID; the server going away loses nothing, and its return brings everything up to date")
    func sshfsLibrary() async throws {
        let owner = try await TestOwner()
        let nas = try await SSHFSServer(owner: owner)
        for name in ["Trips/a.jpg", "Trips/b.jpg", "Home/c.jpg"] { try nas.write("lib/" + name, contents: "photo \(name)") }
        try nas.makeDirectories("views")
        let library = try TestLibrary(owner: owner, placedUnder: nas.mountPoint)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = \(SSHFSServer.cacheSeconds + 1)\n")])
        defer { daemon.stopLater() }
        try await daemon.addApp("org.example.Viewer", "authorized")
        let view = await daemon.view("org.example.Viewer")
        try await waitUntil("a verification round, in status", timeout: 30) {
            await (try? daemon.ok("status"))?.contains("because the library is on fuse") == true
        }
        let before = try await daemon.assets()
        #expect(before.count == 3)

        // On the server: a photo added, one renamed, one edited in place, an album renamed.
        try nas.write("lib/Trips/new.jpg", contents: "a new photo")
        #expect(rename(nas.export + "/lib/Trips/a.jpg", nas.export + "/lib/Trips/renamed.jpg") == 0)
        try Data("photo Trips/b.jpg, edited".utf8).write(to: URL(fileURLWithPath: nas.export + "/lib/Trips/b.jpg"))
        #expect(rename(nas.export + "/lib/Home", nas.export + "/lib/House") == 0)
        try await waitUntil("the server's changes in the index", timeout: 60) {
            let now = try await daemon.assets()
            return Set(now.keys) == ["Trips/new.jpg", "Trips/renamed.jpg", "Trips/b.jpg", "House/c.jpg"]
        }
        let after = try await daemon.assets()
        #expect(after["Trips/renamed.jpg"] == before["Trips/a.jpg"], "renamed on the server, it keeps its ID")
        #expect(after["Trips/b.jpg"] == before["Trips/b.jpg"], "edited in place, it keeps its ID")
        #expect(after["House/c.jpg"] == before["Home/c.jpg"], "its album renamed, it keeps its ID")
        try await waitUntil("the view to follow", timeout: 30) {
            let new = try await nas.ownerSees(view + "/Trips/new.jpg"), renamed = try await nas.ownerSees(view + "/Trips/renamed.jpg")
            let old = try await nas.ownerSees(view + "/Trips/a.jpg")
            return new && renamed && !old
        }

        // The server goes away: the library is unavailable (status, an event), nothing is taken for gone.
        let events = try EventReader(daemon, app: "org.example.Viewer")
        await nas.stopServer()
        let away = try await Self.nextLibraryEvent(events)
        #expect(away.state == "unavailable" && away.app == "org.example.Viewer", "\(away)")
        #expect(away.reason?.contains("server") == true, "\(away)")
        let status = try await daemon.ok("status")
        #expect(status.contains(": unavailable") && status.contains("unavailable: since"), "\(status)")
        #expect(try await daemon.assets().count == 4, "nothing is taken for gone while the server is away")
        let late = try EventReader(daemon, app: "org.example.Viewer")
        #expect(try await Self.nextLibraryEvent(late).state == "unavailable", "one who subscribes meanwhile hears it at once")
        // Changed on the server meanwhile, and found once it is back, without a restart.
        #expect(unlink(nas.export + "/lib/Trips/new.jpg") == 0)
        try nas.write("lib/Trips/while-away.jpg", contents: "added while the mount could not reach it")
        try await nas.startServer()
        try await waitUntil("what changed while the server was away, in the index", timeout: 90) {
            await Set(try daemon.assets().keys) == ["Trips/while-away.jpg", "Trips/renamed.jpg", "Trips/b.jpg", "House/c.jpg"]
        }
        #expect(try await daemon.assets()["Trips/renamed.jpg"] == before["Trips/a.jpg"])
        #expect(try await Self.nextLibraryEvent(events).state == "available")
        do {
            try await waitUntil("status to be back to ready", timeout: 60) { try await daemon.ok("status").contains(": ready") }
        } catch {
            Issue.record("\(error); status: \(await (try? daemon.ok("status")) ?? "?"); the end of the log: \(daemon.log.suffix(3000))")
        }
    }

    @Test("a server that stops answering (its sshd stopped, every call into the mount waiting): status answers within a second while a round is held, and the daemon still stops within its deadline")
    func hungServer() async throws {
        let owner = try await TestOwner()
        // Mounted without keep-alives or reconnection: a server that stops answering is waited for without end.
        let nas = try await SSHFSServer(owner: owner, keepsAlive: false)
        try nas.write("lib/Trips/a.jpg")
        try nas.makeDirectories("views")
        let library = try TestLibrary(owner: owner, placedUnder: nas.mountPoint)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = 1\n")])
        defer { daemon.stopLater() }
        func lastRound() async throws -> Int64? {
            let json = try await JSONSerialization.jsonObject(with: Data(try daemon.ok("status", "--json").utf8)) as? [String: Any]
            return (json?["rounds"] as? [String: Any])?["lastRoundAt"] as? Int64
        }
        try await waitUntil("a verification round, in status", timeout: 30) { try await lastRound() != nil }

        nas.freeze()
        defer { nas.thaw() }

        // Held: rounds stop ending once sshfs's cache no longer answers for the server.
        var seen = try await lastRound()
        var since = Date()
        try await waitUntil("a round to be held by the server that stopped answering", timeout: 60) {
            let now = try await lastRound()
            if now != seen { (seen, since) = (now, Date()) }
            return Date().timeIntervalSince(since) > Double(SSHFSServer.cacheSeconds + 8)
        }
        try await waitUntil("status to say the library is unavailable", timeout: 60) {
            try await daemon.ok("status").contains("has not answered for")
        }
        // The daemon's answer, timed on the socket: photolibctl's own start takes seconds on a loaded machine.
        let socket = daemon.library.socket
        for _ in 0..<5 {
            let took = try await onThread { () throws -> Double in
                let connection = try PhotoLibConnection(socketPath: socket, receiveTimeout: 30)
                let started = Date()
                _ = try connection.call(.status, NoParams(), returning: StatusResult.self)
                return Date().timeIntervalSince(started)
            }.value
            #expect(took < 1, "status took \(took) s while the library's server did not answer")
        }
        let status = try await daemon.ok("status")
        #expect(status.contains("rounds:") && status.contains(": unavailable"), "\(status)")
        // The stop does not wait for a call that never returns: at its deadline the daemon ends. (The
        // thread inside the FUSE request stays in the kernel, which no signal reaches, until the FUSE
        // program answers or goes: the process is reaped once the server is back.)
        let process = try #require(daemon.process)
        process.signal(SIGTERM)
        try await waitUntil("the stop's deadline to end the daemon", timeout: 30) {
            daemon.log.contains("Stopping took more than 10 s")
        }
        let answered = try? await daemon.ctl("status")
        #expect(!FileManager.default.fileExists(atPath: library.socket) || answered?.status != 0, "no longer answering once it ended")
        nas.thaw()
        #expect(await process.exited(timeout: 30) != nil, "reaped once the server answers again")
    }

    @Test("a library on sshfs with the views on the local disk: an app on the owner's uid reads its view through FUSE, each photo from the server, nothing copied; an app under a uid of its own, where allow_other is not allowed, gets copies, and apps, status and doctor say why")
    func localViewsOfANetworkLibrary() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        let nas = try await SSHFSServer(owner: owner, mountingAt: library.library)
        defer { nas.unmountLater() }  // after the daemon's stop, before the library's removal
        for name in ["Trips/a.jpg", "Trips/b.jpg"] { try nas.write(name, contents: "photo \(name) on the server") }
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = \(SSHFSServer.cacheSeconds + 1)\n")])
        defer { daemon.stopLater() }
        #expect(try await daemon.ok("status").contains("entries:  references"))
        let (sandboxed, own) = ("org.example.Sandboxed", "org.example.Viewer")
        try await daemon.addApp(sandboxed, "authorized", uid: Int(owner.uid))
        try await daemon.addApp(own, "limited")
        try await daemon.ok("select", own, "Trips/a.jpg")
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        let served = try #require(apps.first { $0.app == sandboxed }), copying = try #require(apps.first { $0.app == own })
        #expect(served.entries == AppEntries(form: "fuse"), "\(served)")
        #expect(copying.entries?.form == "copies" && copying.entries?.reason?.contains("user_allow_other") == true, "\(copying)")

        // The app on the owner's uid reads its whole view from the server through FUSE (the test process,
        // another uid, cannot look into that mount: the owner does, with a deadline).
        let read = try await run(owner.command("/bin/sh")[0], Array(owner.command("/bin/sh").dropFirst())
                           + ["-c", #"cat "$1/Trips/a.jpg"; echo; cat "$1/Trips/b.jpg"; echo; ls -A "$1/Trips" | wc -l"#, "sh", served.view], timeout: 30)
        #expect(read.stdout == "photo Trips/a.jpg on the server\nphoto Trips/b.jpg on the server\n2\n", "\(read)")
        // Nothing of the library copied for it: its references are symbolic links, apart, the owner's alone.
        let references = library.views + "/.references/" + (served.view as NSString).lastPathComponent
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: references + "/Trips/a.jpg") == "/Trips/a.jpg")
        var status = stat()
        #expect(stat(references, &status) == 0 && status.st_mode & 0o777 == 0o700 && status.st_uid == owner.uid)

        // The app under a uid of its own holds a copy: the photo's bytes, in its view on the local disk.
        try await waitUntil("the copy in the view", timeout: 30) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: copying.view)) ?? []
            return names.count == 1 && FileManager.default.contents(atPath: copying.view + "/" + names[0]) == Data("photo Trips/a.jpg on the server".utf8)
        }
        let doctor = try await daemon.ctl("doctor").stdout
        #expect(doctor.contains("holds copies") && doctor.contains("user_allow_other"), "\(doctor)")
    }

    @Test("where allow_other is allowed (user_allow_other, in a mount namespace of the daemon's own here), an app under a uid of its own reads its view of a network library through FUSE, and no other uid does, not even the owner")
    func ownUIDAppThroughFUSE() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        let nas = try await SSHFSServer(owner: owner, mountingAt: library.library)
        defer { nas.unmountLater() }
        for name in ["Trips/a.jpg", "Trips/b.jpg"] { try nas.write(name, contents: "photo \(name) on the server") }
        // /etc/fuse.conf with user_allow_other, seen by the daemon (and fusermount3) alone: bound over the
        // real one in a mount namespace of its own, which the reads below enter.
        chmod(library.root, 0o711)  // others pass through, as through a home, to the views
        let configuration = library.root + "/fuse.conf"
        try "user_allow_other\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = \(SSHFSServer.cacheSeconds + 1)\n")],
                               launcher: ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                                          #"mount --bind "$0" /etc/fuse.conf && exec "$@""#, configuration])
        defer { daemon.stopLater() }
        let pid = try #require(daemon.process?.pid)
        try await daemon.addApp("org.example.Viewer", "limited", uid: 4242)
        try await daemon.ok("select", "org.example.Viewer", "Trips/a.jpg")
        let info = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first)
        #expect(info.entries == AppEntries(form: "fuse"), "\(info) \(daemon.log.suffix(2000))")
        func readAs(_ uid: UInt32) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await run("/usr/bin/nsenter", ["--mount", "--target", String(pid), "/usr/bin/setpriv", "--reuid", String(uid), "--regid", String(uid),
                                         "--clear-groups", "/bin/sh", "-c", #"ls -A "$1"; cat "$1"/*"#, "sh", info.view], timeout: 30)
        }
        let app = try await readAs(4242)
        #expect(app.status == 0 && app.stdout.hasSuffix("photo Trips/a.jpg on the server"), "\(app)")
        for other in [4343, owner.uid] {
            let refused = try await readAs(UInt32(other))
            #expect(refused.status != 0 && refused.stderr.contains("Permission denied") && !refused.stdout.contains("photo"), "uid \(other): \(refused)")
        }
    }

    @Test("while a network library's server does not answer, a selection edit answers at once: a deselected photo leaves the view (its reference is local), one selected waits for the server, and its return places it")
    func editsWhileTheServerHangs() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        // Without keep-alives: a server that stops answering is waited for without end.
        let nas = try await SSHFSServer(owner: owner, keepsAlive: false, mountingAt: library.library)
        defer { nas.unmountLater() }
        for name in ["Trips/a.jpg", "Trips/b.jpg", "Trips/c.jpg"] { try nas.write(name, contents: "photo \(name) on the server") }
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = 1\n")])
        defer { daemon.stopLater() }
        let app = "org.example.Sandboxed"
        try await daemon.addApp(app, "limited", uid: Int(owner.uid))
        try await daemon.ok("select", app, "Trips/a.jpg", "Trips/b.jpg")
        let view = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first?.view)
        let references = library.views + "/.references/" + (view as NSString).lastPathComponent
        func targets() -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: references)) ?? []).compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: references + "/" + $0)
            })
        }
        try await waitUntil("the view's two references", timeout: 30) { targets() == ["/Trips/a.jpg", "/Trips/b.jpg"] }

        nas.freeze()
        defer { nas.thaw() }
        try await waitUntil("status to say the library is unavailable", timeout: 60) { try await daemon.ok("status").contains("has not answered for") }
        let started = Date()
        try await daemon.ok("deselect", app, "Trips/b.jpg")
        try await daemon.ok("select", app, "Trips/c.jpg")
        #expect(Date().timeIntervalSince(started) < 10, "the edits waited \(Date().timeIntervalSince(started)) s for the server")
        #expect(targets() == ["/Trips/a.jpg"], "the deselected photo left at once; the selected one waits: \(targets())")

        nas.thaw()
        try await waitUntil("the server back, and the selected photo placed", timeout: 90) {
            try await daemon.ok("status").contains(": ready") && targets() == ["/Trips/a.jpg", "/Trips/c.jpg"]
        }
    }

    @Test("the page's Library says, in words, that the library's server does not answer and that nothing is lost, and doctor's check says what to do")
    func pageWhileUnavailable() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        let nas = try await SSHFSServer(owner: owner, mountingAt: library.library)
        defer { nas.unmountLater() }
        for name in ["Trips/a.jpg", "Trips/b.jpg"] { try nas.write(name, contents: "photo \(name) on the server") }
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = \(SSHFSServer.cacheSeconds + 1)\n")])
        defer { daemon.stopLater() }
        await nas.stopServer()
        try await waitUntil("status to say the library is unavailable", timeout: 60) { try await daemon.ok("status").contains(": unavailable") }
        let page = try await PageSession(daemon)
        let shown = try await page.drive(["show", page.url, "library", "--shots", library.root + "/shots"])
        #expect((shown["state"] as? String)?.hasPrefix("The library's server does not answer (") == true, "\(shown)")
        #expect((shown["state"] as? String)?.contains("Nothing is lost") == true, "\(shown)")
        let checks = (shown["checks"] as? [String]) ?? []
        #expect(checks.contains { $0.hasPrefix("Problem: ") && $0.contains("is unavailable") }, "\(shown)")
        #expect(checks.filter { $0.hasPrefix("Problem: ") }.count == 1, "the server away is one problem, said once: \(checks)")
        #expect(FileManager.default.fileExists(atPath: library.root + "/shots/library.png"))
    }

    /// The next `library` event, skipping others (fails after 60 s without any event), each read on a thread of its own.
    static func nextLibraryEvent(_ events: EventReader) async throws -> LibraryEvent {
        while true {
            let event = try await events.next()
            if event.head.event == "library" { return try event.decode(LibraryEvent.self) }
        }
    }
}
