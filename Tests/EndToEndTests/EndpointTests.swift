import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// Apps' endpoints and sandboxed apps (SPEC §4), with the daemon run by the
/// library's owner and the apps run as that same uid, as Flatpak apps are.
@Suite("Endpoints and sandboxed apps", .serialized)
struct EndpointTests {
    let viewer = "org.example.Viewer"
    let other = "org.example.Other"

    func appInfo(_ daemon: RunningDaemon, _ app: String) async throws -> AppInfo {
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        return try #require(apps.first { $0.app == app })
    }

    func isSocket(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFSOCK
    }

    /// A python client run as `owner`: connects to `socket`, prints the greeting, then each reply.
    func clientAs(_ owner: TestOwner, _ socket: String, _ requests: [String]) async throws -> [String] {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
            print(f.readline().decode().strip(), flush=True)
            for request in sys.argv[2:]:
                f.write(request.encode() + b"\\n"); f.flush(); print(f.readline().decode().strip(), flush=True)
            """
        let result = try await run(owner.command("/usr/bin/python3")[0], Array(owner.command("/usr/bin/python3").dropFirst())
                             + ["-c", script, socket] + requests)
        guard result.status == 0 else { throw TestFailure("client failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("every app has an endpoint beside its view; a peer there is that app and nothing more, even the owner's uid; endpoints follow the apps")
    func endpointsAreTheirApps() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg")
            try lib.write("b.jpg")
        }
        let lib = daemon.library
        let owner = try #require(lib.owner)
        try await daemon.addApp(viewer, "limited", uid: Int(owner.uid))
        try await daemon.addApp(other, "authorized", uid: 4243)
        try await daemon.ok("select", viewer, "a.jpg")
        let info = try await appInfo(daemon, viewer)
        let endpoint = try #require(info.endpoint)
        #expect(isSocket(endpoint), "\(endpoint)")
        #expect(endpoint.hasSuffix("/" + URL(fileURLWithPath: info.view).lastPathComponent), "named like its view")
        var st = stat()
        lstat(endpoint, &st)
        #expect(st.st_mode & 0o777 == 0o600 && st.st_uid == owner.uid)
        // An app with a uid of its own is let in by an ACL entry.
        let otherEndpoint = try #require(try await appInfo(daemon, other).endpoint)
        let acl = try await run("/usr/bin/python3", ["-c", "import os, sys; print(len(os.getxattr(sys.argv[1], 'system.posix_acl_access')))", otherEndpoint])
        #expect(acl.status == 0 && (Int(acl.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0, "\(acl.stderr)")

        // The owner's uid on the endpoint is the app, not the admin.
        let replies = try await clientAs(owner, endpoint, [
            #"{"id":1,"method":"list"}"#, #"{"id":2,"method":"status"}"#,
            #"{"id":3,"method":"list","params":{"app":"org.example.Other"}}"#,
        ])
        #expect(replies[0].contains(#""role":"app""#) && replies[0].contains(viewer), "\(replies[0])")
        #expect(replies[1].contains(#""result""#) && replies[1].contains(".jpg"), "\(replies[1])")
        #expect(replies[2].contains("adminOnly"), "\(replies[2])")
        #expect(replies[3].contains("otherAppsView"), "\(replies[3])")
        // On the main socket the same uid is the admin.
        #expect(try await clientAs(owner, lib.socket, [])[0].contains(#""role":"admin""#))
        // The example subscriber finds the endpoint in $PHOTOLIBD_ENDPOINT, as inside a sandbox.
        let python = owner.command("/usr/bin/python3")
        let subscriber = try await run(python[0], Array(python.dropFirst()) + [try ReachableCopies.example("subscriber.py"), viewer, "--count", "0"],
                                 environment: ProcessInfo.processInfo.environment.merging(["PHOTOLIBD_ENDPOINT": endpoint]) { $1 })
        #expect(subscriber.status == 0 && subscriber.stdout.contains("listed 1 assets"), "\(subscriber.stdout) \(subscriber.stderr)")

        // A deleted endpoint is bound again; a restart keeps the path; removing the app takes it away.
        #expect(unlink(endpoint) == 0)
        try await waitUntil("the endpoint to be bound again") { isSocket(endpoint) }
        #expect(try await clientAs(owner, endpoint, [])[0].contains(viewer))
        await daemon.stop()
        #expect(!isSocket(endpoint), "a stopped daemon leaves no endpoint behind")
        try await daemon.start()
        let afterRestart = try await appInfo(daemon, viewer).endpoint
        #expect(isSocket(endpoint) && afterRestart == endpoint)
        let open = try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 30)
        #expect(open.greeting.apps == [viewer])
        try await daemon.ok("app", "remove", viewer)
        #expect(!isSocket(endpoint))
        #expect(throws: (any Error).self) { _ = try open.call(.list, NoParams(), returning: ListResult.self) }
    }

    /// The sandbox a person makes with `photolibctl app sandbox APP --bwrap`,
    /// around the Python runtime; `flatpakInfo` is bound at /.flatpak-info, as Flatpak does.
    /// `meanwhile` runs again and again (100 ms apart) until the app exits.
    /// `options` go to the app (`--ask`, `--review`).
    func sandboxed(_ daemon: RunningDaemon, _ app: String, flatpakInfo: String?, extraBinds: [String] = [], options: [String] = [],
                   probes: [String] = [], meanwhile: () async throws -> Void = {}) async throws -> (status: Int32, lines: [[String: Any]], stderr: String) {
        let lib = daemon.library
        let owner = try #require(lib.owner)
        let client = try ReachableCopies.example("sandboxed_app.py")
        let shared = try ReachableCopies.example("photolib_client.py")
        var binds = extraBinds
        if let flatpakInfo {
            let path = lib.root + "/flatpak-info-\(UInt32.random(in: 0..<UInt32.max))"
            try flatpakInfo.write(toFile: path, atomically: false, encoding: .utf8)
            try owner.own(path)
            binds += ["--ro-bind", path, "/.flatpak-info"]
        }
        // photolibctl runs outside the sandbox (as root here: an admin, as the owner is); bwrap as the owner.
        let arguments = try await daemon.ok("app", "sandbox", app, "--bwrap").trimmingCharacters(in: .whitespacesAndNewlines)
        let shell = "exec bwrap --unshare-all --die-with-parent --ro-bind /usr /usr --symlink usr/lib /lib"
            + " --symlink usr/lib64 /lib64 --symlink usr/bin /bin --proc /proc --dev /dev \(arguments)"
            + " --ro-bind \"$0\" /app/sandboxed_app.py --ro-bind \(SandboxArguments.shellQuoted(shared)) /app/photolib_client.py \(binds.map(SandboxArguments.shellQuoted).joined(separator: " "))"
            + " /usr/bin/python3 /app/sandboxed_app.py \(options.joined(separator: " ")) --wait-seconds 20 --probe \(probes.map(SandboxArguments.shellQuoted).joined(separator: " "))"
        let sh = owner.command("/bin/sh")
        let output = lib.root + "/sandboxed-\(UInt32.random(in: 0..<UInt32.max)).out"
        let process = try SpawnedProcess(sh[0], Array(sh.dropFirst()) + ["-c", shell, client], output: output)
        // The app gives up after its own 20 s; the test after 60.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning {
            guard Date() < deadline else {
                await process.stopped()
                throw TestFailure("the sandboxed app \(app) did not end within 60 s; it printed: \(process.printed)")
            }
            try await meanwhile()
            try await Task.sleep(for: .milliseconds(100))
        }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        var lines: [[String: Any]] = []
        var other: [String] = []
        for line in printed.split(separator: "\n") {
            if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
                lines.append(object)
            } else {
                other.append(String(line))
            }
        }
        return (await process.exited(timeout: 10).map { $0 & 0x7F == 0 ? ($0 >> 8) & 0xFF : 128 + ($0 & 0x7F) } ?? -1, lines, other.joined(separator: "\n"))
    }

    /// What the person does while a sandboxed app waits for a change: select
    /// and deselect a photo, again and again (whenever the app subscribed, it hears one).
    func editingSelection(_ daemon: RunningDaemon, _ app: String, _ path: String) -> () async throws -> Void {
        var adding = true
        return {
            try await daemon.ok(adding ? "select" : "deselect", app, path)
            adding.toggle()
        }
    }

    func step(_ lines: [[String: Any]], _ name: String) -> [String: Any]? {
        lines.first { $0["step"] as? String == name }
    }

    @Test("a sandboxed app given only what 'app sandbox --bwrap' prints lists, subscribes, resumes through its endpoint, and reaches nothing else")
    func sandboxedAppThroughItsEndpoint() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg")
            try lib.write("b.jpg")
        }
        let lib = daemon.library
        let owner = try #require(lib.owner)
        try await daemon.addApp(viewer, "limited", uid: Int(owner.uid))
        try await daemon.addApp(other, "limited", uid: Int(owner.uid))
        try await daemon.ok("select", viewer, "a.jpg")
        try await daemon.ok("select", other, "b.jpg")
        let otherInfo = try await appInfo(daemon, other)
        let flatpakInfo = "[Application]\nname=\(viewer)\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08\n\n[Instance]\ninstance-id=1\n"

        let outcome = try await sandboxed(daemon, viewer, flatpakInfo: flatpakInfo,
                                    probes: [lib.socket, lib.library, otherInfo.view, try #require(otherInfo.endpoint)],
                                    meanwhile: editingSelection(daemon, viewer, "b.jpg"))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let greeting = step(outcome.lines, "greeting")?["greeting"] as? [String: Any]
        #expect(greeting?["role"] as? String == "app" && greeting?["apps"] as? [String] == [viewer], "\(outcome.lines)")
        let listed = (step(outcome.lines, "list")?["reply"] as? [String: Any])?["result"] as? [String: Any]
        let listedCount = (listed?["assets"] as? [[String: Any]])?.count ?? 0
        #expect((1...2).contains(listedCount))
        #expect(((step(outcome.lines, "view")?["entries"] as? [String])?.count).map { (1...2).contains($0) } == true)
        #expect((step(outcome.lines, "event")?["event"] as? [String: Any])?["event"] as? String == "selection", "\(outcome.lines)")
        let resumed = step(outcome.lines, "resumed")?["reply"] as? [String: Any]
        #expect(resumed?["result"] != nil, "\(outcome.lines)")
        #expect(step(outcome.lines, "write-view")?["ok"] as? Bool == false, "the app wrote its view")
        let probes = outcome.lines.filter { $0["step"] as? String == "probe" }
        #expect(probes.count == 4)
        for probe in probes {
            #expect(probe["reached"] as? Bool == false, "the sandbox reached \(probe["path"] ?? "?")")
        }
    }

    @Test("a Flatpak app on another app's endpoint, or on the main socket, is refused: never that app, never the admin")
    func flatpakIdentityIsChecked() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in try lib.write("a.jpg") }
        let lib = daemon.library
        let owner = try #require(lib.owner)
        try await daemon.addApp(viewer, "authorized", uid: Int(owner.uid))
        let impostor = "[Application]\nname=org.example.Impostor\n"
        let wrong = try await sandboxed(daemon, viewer, flatpakInfo: impostor)
        let refused = step(wrong.lines, "greeting")?["greeting"] as? [String: Any]
        #expect((refused?["error"] as? [String: Any])?["code"] as? String == "endpointOfAnotherApp", "\(wrong.lines) \(wrong.stderr)")

        // The main socket bound into the sandbox by mistake: a Flatpak peer there is refused, though its uid is the owner's.
        let onMain = try await sandboxed(daemon, viewer, flatpakInfo: "[Application]\nname=\(viewer)\n",
                                   extraBinds: ["--bind", lib.socket, lib.socket], probes: [lib.socket],
                                   meanwhile: editingSelection(daemon, viewer, "a.jpg"))
        let probe = onMain.lines.first { $0["step"] as? String == "probe" }
        let answer = (probe?["answer"] as? [String: Any])?["error"] as? [String: Any]
        #expect(answer?["code"] as? String == "sandboxedOnMainSocket", "\(onMain.lines) \(onMain.stderr)")
        #expect(daemon.log.contains("Refused a connection"), "the refusal is logged")
    }

    @Test("a sandboxed app asks through its endpoint and waits; the person answers with photolibctl; the answer is the reply")
    func sandboxedAppAsks() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg")
            try lib.write("b.jpg")
            try lib.write("c.jpg")
        }
        let owner = try #require(daemon.library.owner)
        try await daemon.ok("app", "add", viewer, "--uid", String(owner.uid), "--purpose", "Prints your holiday photos")
        let ids = try await daemon.appIDs(viewer)  // the app hears its own IDs
        let a = try #require(ids["a.jpg"]), b = try #require(ids["b.jpg"])
        let flatpakInfo = "[Application]\nname=\(viewer)\n"
        var answered: [String] = []
        let editing = editingSelection(daemon, viewer, "c.jpg")
        // The person: answers each request as it appears (first access with
        // a.jpg, then the review with b.jpg), then edits so the app hears a change.
        let outcome = try await sandboxed(daemon, viewer, flatpakInfo: flatpakInfo, options: ["--ask", "--review"]) {
            let pending = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests
            if let request = pending.first {
                #expect(request.app == viewer && request.purpose == "Prints your holiday photos")
                let chosen = request.kind == "review" ? "b.jpg" : "a.jpg"
                try await daemon.ok("answer", String(request.request), "limited", chosen)
                answered.append(request.kind)
            } else if answered.count == 2 {
                try await editing()
            }
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(answered == ["authorization", "review"])
        let asked = (step(outcome.lines, "asked")?["reply"] as? [String: Any])?["result"] as? [String: Any]
        #expect(asked?["state"] as? String == "answered" && asked?["status"] as? String == "limited", "\(outcome.lines)")
        #expect(asked?["addedAssets"] as? [String] == [a], "\(outcome.lines)")
        let reviewed = (step(outcome.lines, "reviewed")?["reply"] as? [String: Any])?["result"] as? [String: Any]
        #expect(reviewed?["kind"] as? String == "review" && reviewed?["addedAssets"] as? [String] == [b], "\(outcome.lines)")
        let listed = ((step(outcome.lines, "list")?["reply"] as? [String: Any])?["result"] as? [String: Any])?["assets"] as? [[String: Any]]
        let listedIDs = Set(listed?.compactMap { $0["id"] as? String } ?? [])
        #expect(listedIDs.isSuperset(of: [a, b]), "\(outcome.lines)")
    }
}
