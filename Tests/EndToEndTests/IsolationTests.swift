import Foundation
import Glibc
import Testing

/// Apps with their own uids, made with setpriv (no passwd entries needed).
@Suite("Isolation between apps with their own uids", .serialized)
struct IsolationTests {
    static let appA = (id: "org.example.Alpha", uid: 54331)
    static let appB = (id: "org.example.Beta", uid: 54332)
    static let stranger = 54339

    /// Runs a command as `uid` with no groups.
    func run(as uid: Int, _ command: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await EndToEndTests.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", command] + arguments)
    }

    /// A daemon whose test root others may pass through (as through a home), for
    /// tests that run clients as app uids; nil (with the reason recorded) when not root.
    func startedForAppUIDs() async throws -> RunningDaemon? {
        guard getuid() == 0 else {
            Issue.record("this test runs commands as other uids with setpriv and must run as root (CI does)")
            return nil
        }
        let library = try TestLibrary()
        chmod(library.root, 0o711)
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        return daemon
    }

    func canList(_ uid: Int, _ path: String) async throws -> Bool { try await run(as: uid, "/bin/ls", [path]).status == 0 }
    func canRead(_ uid: Int, _ path: String) async throws -> Bool { try await run(as: uid, "/bin/cat", [path]).status == 0 }
    func canWrite(_ uid: Int, _ path: String) async throws -> Bool {
        try await run(as: uid, "/bin/sh", ["-c", "echo x >> \"$0\"", path]).status == 0
    }
    func canCreate(_ uid: Int, in directory: String) async throws -> Bool {
        try await run(as: uid, "/usr/bin/touch", [directory + "/planted.jpg"]).status == 0
    }

    @Test("each app's uid reads its own view (albums made later included) and nothing else: not another view, not the views root, not the library; it writes nothing")
    func filesystemIsolation() async throws {
        guard getuid() == 0 else {
            Issue.record("this test runs commands as other uids with setpriv and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        chmod(library.root, 0o711)    // others may pass through to the views, as through a home
        chmod(library.library, 0o700) // the library is its owner's alone
        try library.write("a/1.jpg")
        try library.write("b/2.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp(Self.appA.id, "authorized", uid: Self.appA.uid)
        try await daemon.addApp(Self.appB.id, "limited", uid: Self.appB.uid)
        try await daemon.ok("select", Self.appB.id, "b/2.jpg")
        let viewA = await daemon.view(Self.appA.id), viewB = await daemon.view(Self.appB.id)
        let entryB = try await waitForSingleEntry(viewB)

        let (a, b) = (Self.appA.uid, Self.appB.uid)
        #expect(try await canList(a, viewA))
        #expect(try await canList(a, viewA + "/a"))
        #expect(try await canRead(a, viewA + "/a/1.jpg"))
        #expect(try await canRead(b, viewB + "/" + entryB))
        #expect(try await !canList(a, viewB), "app A listed app B's view")
        #expect(try await !canRead(a, viewB + "/" + entryB), "app A read app B's photo")
        #expect(try await !canList(b, viewA))
        #expect(try await !canRead(b, viewA + "/b/2.jpg"))
        #expect(try await !canList(a, library.views), "the views root must not be listable")
        #expect(try await !canList(a, library.library), "the library must be closed to apps")
        #expect(try await !canRead(a, library.path("a/1.jpg")))
        #expect(try await !canList(Self.stranger, viewA))
        #expect(try await !canWrite(a, viewA + "/a/1.jpg"), "an app wrote an original through its view")
        #expect(try await !canCreate(a, in: viewA))
        #expect(try await !canCreate(a, in: viewA + "/a"))
        // A view's name is random: knowing another app's ID finds nothing.
        for (id, view) in [(Self.appA.id, viewA), (Self.appB.id, viewB)] {
            let name = (view as NSString).lastPathComponent
            #expect(name.hasPrefix("view-") && !name.contains(id), "\(view) can be guessed from \(id)")
        }
        let stat = "/usr/bin/stat"
        #expect(try await run(as: b, stat, [library.views + "/" + Self.appA.id]).status != 0)
        #expect(try await run(as: b, stat, [viewA]).status == 0, "sanity: a path that is known can be stat'ed through the traversable root")

        // An album made now is created by the incremental path and inherits the ACL.
        try library.write("c/new.jpg")
        try await waitUntil("the new album in app A's view") { FileManager.default.fileExists(atPath: viewA + "/c/new.jpg") }
        #expect(try await canRead(a, viewA + "/c/new.jpg"))
        #expect(try await !canList(b, viewA + "/c"))
    }

    @Test("over the socket an app uid gets its own view only: no other app, no admin request; a uid with no app is refused")
    func socketIsolation() async throws {
        guard let daemon = try await startedForAppUIDs() else { return }
        let library = daemon.library
        try await daemon.addApp(Self.appA.id, "authorized", uid: Self.appA.uid)
        try await daemon.addApp(Self.appB.id, "limited", uid: Self.appB.uid)
        let ctl = try ReachableCopies.binary("photolibctl")
        func ctlAs(_ uid: Int, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await run(as: uid, ctl, arguments + ["--socket", library.socket])
        }
        let other = try await ctlAs(Self.appA.uid, ["watch", Self.appB.id])
        #expect(other.status == 4, "permission refused is exit status 4")
        #expect(other.stderr.contains(Self.appB.id), "\(other.stderr)")
        for admin in [["status"], ["apps"], ["select", Self.appA.id, "x.jpg"], ["authorize", Self.appA.id, "authorized"], ["rescan"]] {
            let result = try await ctlAs(Self.appA.uid, admin)
            #expect(result.status == 4, "\(admin) was allowed to an app uid, or its status is not 4")
            #expect(result.stderr.contains("Only the library's owner (or root) may call"), "\(admin): \(result.stderr)")
        }
        let stranger = try await ctlAs(Self.stranger, ["watch"])
        #expect(stranger.status == 4)
        #expect(stranger.stderr.contains("uid \(Self.stranger) is neither this daemon's owner nor a registered app"), "\(stranger.stderr)")
    }

    @Test("removing an app closes its open connections at once; registered again under another uid, the old peer has no role")
    func removingAnAppClosesItsConnections() async throws {
        guard let daemon = try await startedForAppUIDs() else { return }
        let library = daemon.library
        try await daemon.addApp(Self.appA.id, "authorized", uid: Self.appA.uid)
        // A subscriber running as the app's uid: it says when it is subscribed,
        // then reads until the daemon closes the connection.
        let client = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rb")
            f.readline()
            s.sendall(json.dumps({"id": 1, "method": "subscribe", "params": {"app": sys.argv[2]}}).encode() + b"\\n")
            print("subscribed" if b'"result"' in f.readline() else "refused", flush=True)
            while f.readline(): pass
            print("closed", flush=True)
            """
        let output = library.root + "/client.out"
        let process = try SpawnedProcess("/usr/bin/setpriv",
            ["--reuid=\(Self.appA.uid)", "--regid=\(Self.appA.uid)", "--clear-groups", "/usr/bin/python3", "-c", client,
             library.socket, Self.appA.id], output: output)
        func said() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        try await waitUntil("the app's subscriber to be subscribed", while: process) { said().contains("subscribed") }
        #expect(said().contains("subscribed"), "\(said())")

        try await daemon.ok("app", "remove", Self.appA.id)
        #expect(await process.exited(timeout: 10) != nil, "the removed app's connection stayed open")
        #expect(said().contains("closed"))
        // Registered again under another uid: the old uid is nobody now.
        try await daemon.addApp(Self.appA.id, "authorized", uid: Self.appB.uid)
        let again = try await run(as: Self.appA.uid, "/usr/bin/python3", ["-c", client, library.socket, Self.appA.id])
        #expect(!again.stdout.contains("subscribed"), "\(again.stdout)")
    }

    @Test("the daemon warns in its log when an app's uid could open the library itself, and says how to close it")
    func warnsWhenAnAppReachesTheLibrary() async throws {
        let library = try TestLibrary()
        chmod(library.root, 0o711)
        chmod(library.library, 0o755)  // a home's Pictures as Debian makes it: open to everyone
        try library.write("a/1.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        #expect(!daemon.log.contains("going around photolibd"))
        try await daemon.addApp(Self.appA.id, "limited", uid: Self.appA.uid)
        try await waitUntil("the warning in the log") { daemon.log.contains("going around photolibd") }
        #expect(daemon.log.contains("\(Self.appA.uid)") && daemon.log.contains("chmod 700"))
    }

    @Test("an original an app could write through an ACL entry is not linked, and doctor names it")
    func aclWritableOriginal() async throws {
        let library = try TestLibrary()
        try library.write("a/ok.jpg")
        try library.write("a/acl.jpg")
        // user::rw- user:54331:rw- group::r-- mask::rw- other::r--, written as libacl would.
        let script = """
            import os, struct, sys
            entries = [(1, 6, 0xFFFFFFFF), (2, 6, 54331), (4, 4, 0xFFFFFFFF), (0x10, 6, 0xFFFFFFFF), (0x20, 4, 0xFFFFFFFF)]
            blob = struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *e) for e in entries)
            os.setxattr(sys.argv[1], 'system.posix_acl_access', blob)
            """
        let set = try await EndToEndTests.run("/usr/bin/python3", ["-c", script, library.path("a/acl.jpg")])
        #expect(set.status == 0, "\(set.stderr)")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp(Self.appA.id, "authorized", uid: Self.appA.uid)
        let view = await daemon.view(Self.appA.id)
        try await waitUntil("the view to be built") { FileManager.default.fileExists(atPath: view + "/a/ok.jpg") }
        #expect(!FileManager.default.fileExists(atPath: view + "/a/acl.jpg"))
        let doctor = try await daemon.ctl("doctor")
        #expect(doctor.stdout.contains("FAIL  writable-originals: 1 original can be written by group, others or an ACL entry, so no app is given it: a/acl.jpg."), "\(doctor.stdout)")
    }

    @Test("the directories photolibd makes above the views let each app uid pass (not list), and close again when no app needs them")
    func passageThroughMadeDirectories() async throws {
        guard getuid() == 0 else {
            Issue.record("this test runs commands as other uids with setpriv and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        chmod(library.root, 0o711)    // like /home: others pass through
        chmod(library.library, 0o700)
        try library.write("a/1.jpg")
        // Neither home/.local nor anything below exists: photolibd makes the whole chain 0700.
        let state = library.root + "/home/.local/share/photolibd", views = state + "/views"
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--views-dir", views, "--state-dir", state])
        let a = Self.appA.uid
        func passes(_ uid: Int, _ path: String) async throws -> Bool { try await run(as: uid, "/usr/bin/test", ["-e", path]).status == 0 }
        #expect(try await !passes(a, views), "before any app, the made directories are the owner's alone")

        try await daemon.addApp(Self.appA.id, "limited", uid: a)
        try await daemon.ok("select", Self.appA.id, "a/1.jpg")
        let view = await daemon.view(Self.appA.id)
        #expect(view.hasPrefix(views + "/"))
        let entry = try await waitForSingleEntry(view)
        #expect(try await canRead(a, view + "/" + entry), "the app's uid could not reach its view through the made directories")
        for made in [library.root + "/home", library.root + "/home/.local", library.root + "/home/.local/share", state] {
            #expect(try await !canList(a, made), "an app uid listed \(made)")
            let passed = try await passes(Self.stranger, made + "/x"), listed = try await canList(Self.stranger, made)
            #expect(!passed && !listed, "a uid with no app got into \(made)")
        }
        #expect(try await !canRead(a, state + "/photolibd.sqlite"))

        try await daemon.ok("app", "remove", Self.appA.id)
        #expect(try await !passes(a, views), "a removed app's uid still passes through the made directories")
    }

    func waitForSingleEntry(_ view: String) async throws -> String {
        var name = ""
        try await waitUntil("one entry in \(view)") {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: view)) ?? []
            name = entries.first ?? ""
            return entries.count == 1
        }
        return name
    }
}
