import Foundation
import Glibc
import PhotoLibProtocol
import PhotoLibSystem
import Testing

/// photolibd-inotify, the process that alone links libinotifytools (docs/PACKAGING.md), as the
/// daemon runs it: confined, replaced at once when it dies, and missed by nothing meanwhile.
@Suite("The inotify helper", .serialized)
struct InotifyHelperTests {
    @Test("the helper runs confined (seccomp, no new privileges) with nothing open but its socket and inotify")
    func confined() async throws {
        let daemon = try await RunningDaemon.startedByOwner { try $0.write("a/1.jpg") }
        defer { daemon.stopLater() }
        let helper = try await pinnedHelper(of: daemon)
        let status = try String(contentsOfFile: "/proc/\(helper.pid)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2"), "\(status)")
        #expect(status.contains("NoNewPrivs:\t1"), "\(status)")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper.pid)/fd").compactMap(Int32.init).sorted()
        let targets = descriptors.map { descriptor -> String in
            var buffer = [CChar](repeating: 0, count: 256)
            let count = readlink("/proc/\(helper.pid)/fd/\(descriptor)", &buffer, 255)
            return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        }
        // Its socket (standard output), the daemon's standard error, and libinotifytools' instance.
        #expect(descriptors == [1, 2, 3], "\(Array(zip(descriptors, targets)))")
        #expect(targets.first?.hasPrefix("socket:") == true && targets.last == "anon_inode:inotify", "\(targets)")
        // The helper runs as the library's owner, as the daemon does.
        #expect(status.contains("Uid:\t\(daemon.library.owner!.uid)\t"), "\(status)")
    }

    @Test("SIGTERM to every process, as systemd stops a unit, leaves the helper to end with the daemon: no helper death logged, the stop clean")
    func stopSignalToAll() async throws {
        let daemon = try await RunningDaemon.startedByOwner { try $0.write("a/1.jpg") }
        defer { daemon.stopLater() }
        let helper = try await pinnedHelper(of: daemon)
        try helper.signal(SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try helper.isAlive(), "the helper ignores a stop's SIGTERM: its life is its socket to the daemon")
        await daemon.stop()
        #expect(!daemon.log.contains("photolibd-inotify was killed"), "\(daemon.log.suffix(2000))")
        try await waitUntil("the helper to end with the daemon") { try !helper.isAlive() }
    }

    @Test("a helper killed while it holds unread events is replaced (within a second, as it had run only moments): watches are rebuilt, the library rescanned, nothing lost")
    func killedHelperLosesNothing() async throws {
        let daemon = try await RunningDaemon.startedByOwner { library in
            try library.write("a/1.jpg")
            try library.write("a/2.jpg")
        }
        defer { daemon.stopLater() }
        try await daemon.addApp("org.example.All", "authorized")
        let view = await daemon.view("org.example.All")
        try await waitUntil("the view to be built") { daemon.library.files(below: view) == ["a/1.jpg", "a/2.jpg"] }
        let before = try await daemon.assets()
        let events = try EventReader(daemon, app: "org.example.All")
        let helper = try await pinnedHelper(of: daemon)

        // Stopped, the helper reads nothing: these changes stay in its instance's queue, which
        // dies with it. Only the rescan after its replacement can find them.
        try helper.signal(SIGSTOP)
        try daemon.library.write("b/3.jpg")
        #expect(rename(daemon.library.path("a/1.jpg"), daemon.library.path("a/1 renamed.jpg")) == 0)
        #expect(unlink(daemon.library.path("a/2.jpg")) == 0)
        try helper.signal(SIGKILL)

        try await waitUntil("the view to catch up after the rescan", timeout: 60) {
            daemon.library.files(below: view) == ["a/1 renamed.jpg", "b/3.jpg"]
        }
        let after = try await daemon.assets()
        #expect(after["a/1 renamed.jpg"] == before["a/1.jpg"], "the renamed photo kept its ID: \(before) → \(after)")
        #expect(after["a/2.jpg"] == nil && after["b/3.jpg"] != nil)
        #expect(daemon.log.contains("photolibd-inotify was killed by signal 9"), "\(daemon.log)")
        #expect(daemon.log.contains("started another"))
        // The subscriber hears the reload a rescan gives.
        var reload = false
        for _ in 0..<20 where !reload { reload = try await !events.nextChange().incremental }
        #expect(reload, "no reload after the helper was replaced")

        // The new helper follows the library live: a photo in a new album reaches the view.
        let replacement = try await pinnedHelper(of: daemon)
        #expect(try !helper.isAlive() && replacement.pid != helper.pid)
        try daemon.library.write("c/4.jpg")
        try await waitUntil("a new photo after the replacement") { daemon.library.files(below: view).contains("c/4.jpg") }
        #expect(try await daemon.ok("status").contains(": ready"))
    }

    @Test("without photolibd-inotify beside it or in libexec, the daemon refuses to start and says where it looked")
    func missingHelper() async throws {
        let library = try TestLibrary()
        let directory = library.root + "/bin-without-helper"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A hard link where it can be: a copy leaves a write descriptor that a child forked meanwhile by
        // another test may hold until it execs, and running the copy then fails with ETXTBSY.
        let daemonCopy = directory + "/photolibd"
        do {
            try FileManager.default.linkItem(atPath: RunningDaemon.buildDirectory + "/photolibd", toPath: daemonCopy)
        } catch {
            try FileManager.default.copyItem(atPath: RunningDaemon.buildDirectory + "/photolibd", toPath: daemonCopy)
        }
        let arguments = ["--library", library.library, "--views-dir", library.views, "--state-dir", library.state, "--socket", library.socket]
        var attempt = 0
        var outcome: (status: Int32, stdout: String, stderr: String)?
        while outcome == nil {
            attempt += 1
            do {
                outcome = try await run(daemonCopy, arguments, timeout: 60)
            } catch where "\(error)".contains("Text file busy") && attempt < 50 {
                usleep(100_000)  // ETXTBSY lasts only until that child execs
            }
        }
        let result = outcome!
        #expect(result.status != 0)
        #expect(result.stderr.contains("photolibd-inotify, which photolibd starts itself, is not an executable at \(library.root)/libexec/photolibd/photolibd-inotify or \(directory)/photolibd-inotify"),
                "\(result.stderr)")
    }

    /// A directory of the test's (owned by the library's owner, 0700) holding photolibd and the real
    /// photolibd-inotify, hard-linked from the reachable copies, for a test to swap the helper in.
    static func ownBinaries(_ library: TestLibrary) throws -> String {
        let directory = library.root + "/bin"
        try library.makeDirectory(directory)
        chmod(directory, 0o700)
        for name in ["photolibd", "photolibd-inotify"] {
            let source = try ReachableCopies.binary(name)
            if link(source, directory + "/" + name) != 0 { try FileManager.default.copyItem(atPath: source, toPath: directory + "/" + name) }
        }
        return directory
    }

    /// A stand-in for photolibd-inotify, in Python: it makes an inotify instance and sends it with the
    /// helper's greeting, as the real one does, then does what `then` says (Python, with `s` its socket);
    /// each start appends a line to `starts`.
    static func fakeHelper(at path: String, starts: String, then: String) throws {
        let script = """
            #!/usr/bin/python3
            import ctypes, os, socket, time
            with open(\(starts.debugDescription), "a") as f: f.write("started\\n")
            fd = ctypes.CDLL(None, use_errno=True).inotify_init1(0o2000000)
            s = socket.socket(fileno=1)
            socket.send_fds(s, [b"PLINOTF1"], [fd])
            \(then)

            """
        let temporary = path + ".new"
        try script.write(toFile: temporary, atomically: false, encoding: .utf8)
        chmod(temporary, 0o755)
        guard rename(temporary, path) == 0 else { throw TestFailure("rename \(temporary): errno \(errno)") }
    }

    @Test("a helper that ends right after its greeting is started again later and later (1, 2, 4 s…), and status says so; once a good one starts, the library is rescanned and nothing is lost")
    func helperThatKeepsDying() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        try library.write("a/1.jpg")
        let binaries = try Self.ownBinaries(library)
        let daemon = try RunningDaemon(library)
        try await daemon.start(binary: binaries + "/photolibd")
        defer { daemon.stopLater() }
        try await daemon.addApp("org.example.All", "authorized")
        let view = await daemon.view("org.example.All")
        try await waitUntil("the view to be built") { daemon.library.files(below: view) == ["a/1.jpg"] }
        // The real helper is set aside; in its place, one that dies as soon as it has greeted
        // (as a helper killed by its filter, or by a preloaded library, would).
        let starts = library.root + "/fake-starts"
        #expect(rename(binaries + "/photolibd-inotify", binaries + "/real-photolibd-inotify") == 0)
        try Self.fakeHelper(at: binaries + "/photolibd-inotify", starts: starts, then: "os._exit(0)")
        try library.owner!.own(binaries + "/photolibd-inotify")
        let running = try await pinnedHelper(of: daemon)
        try running.signal(SIGKILL)
        let down = Date()
        try await waitUntil("status to say the helper keeps ending", timeout: 30) {
            try await daemon.status().watcherDown?.contains("keeps ending soon after it starts") == true
        }
        // Meanwhile the library changes, unseen.
        try library.write("b/2.jpg")
        try await Task.sleep(for: .seconds(8))
        let tries = ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n").count
        let seconds = Date().timeIntervalSince(down)
        // Started again at once, it would have run hundreds of times; waiting 1, 2, 4, 8 s, at most five.
        #expect((2...5).contains(tries), "the dying helper was started \(tries) times in \(Int(seconds)) s")
        #expect(daemon.log.contains("in a row soon after its start; the next starts in"), "\(daemon.log.suffix(3000))")
        // Each try of the dying helper greets first, and the daemon starts its watches and a rescan for it (a
        // moment of `scanning`, longer under load): degraded is what status says between tries.
        try await waitUntil("status to say degraded between the dying helper's tries", timeout: 30) {
            try await daemon.status().state == "degraded"
        }
        // The real one back: at the next try it starts, the watches are rebuilt and the library rescanned.
        #expect(rename(binaries + "/real-photolibd-inotify", binaries + "/photolibd-inotify") == 0)
        try await waitUntil("the new photo found by the rescan after a good helper started", timeout: 90) {
            daemon.library.files(below: view) == ["a/1.jpg", "b/2.jpg"]
        }
        try await waitUntil("status to say all is well", timeout: 30) { try await daemon.status().watcherDown == nil }
        #expect(try await daemon.status().state == "ready")
    }

    @Test("a helper whose stream is not inotify records is ended, and the log names the corrupt stream, not photolibd's own kill")
    func corruptStream() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        try library.write("a/1.jpg")
        let binaries = try Self.ownBinaries(library)
        let daemon = try RunningDaemon(library)
        try await daemon.start(binary: binaries + "/photolibd")
        defer { daemon.stopLater() }
        #expect(rename(binaries + "/photolibd-inotify", binaries + "/real-photolibd-inotify") == 0)
        // A record header claiming a name of 4,000,000 bytes: not something the kernel writes.
        try Self.fakeHelper(at: binaries + "/photolibd-inotify", starts: library.root + "/fake-starts",
                            then: "s.sendall(b'\\x01\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x09\\x3d\\x00' + b'x' * 64); time.sleep(60)")
        try library.owner!.own(binaries + "/photolibd-inotify")
        try await pinnedHelper(of: daemon).signal(SIGKILL)
        try await waitUntil("the log to name the corrupt stream", timeout: 30) {
            daemon.log.contains("photolibd-inotify: it sent bytes that are not inotify records (a corrupt stream), so photolibd ended it")
        }
        #expect(rename(binaries + "/real-photolibd-inotify", binaries + "/photolibd-inotify") == 0)
    }

    @Test("a helper another user could have put in place is refused, saying whose it is and what to do")
    func untrustedHelper() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        let binaries = try Self.ownBinaries(library)
        // Group- and world-writable: anyone could swap it for a program of their own.
        #expect(unlink(binaries + "/photolibd-inotify") == 0)
        try FileManager.default.copyItem(atPath: try ReachableCopies.binary("photolibd-inotify"), toPath: binaries + "/photolibd-inotify")
        chmod(binaries + "/photolibd-inotify", 0o777)
        let owner = library.owner!
        for path in [library.library, binaries + "/photolibd-inotify"] { try owner.own(path) }
        let command = owner.command(binaries + "/photolibd")
        let result = try await run(command[0], Array(command.dropFirst()) + ["--library", library.library, "--views-dir", library.views,
                                                                       "--state-dir", library.state, "--socket", library.socket], timeout: 60)
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(binaries)/photolibd-inotify is writable by its group or by everyone (mode 777); photolibd runs only a helper owned by root or by the user it runs as"),
                "\(result.stderr)")
    }

    /// The daemon's running helper, pinned by a pidfd (never signalled by a bare number).
    func pinnedHelper(of daemon: RunningDaemon) async throws -> ProcessHandle {
        let parent = try ProcessHandle(pid: daemon.pid)
        #expect(try parent.isAlive(), "the daemon exited: \(daemon.log)")
        var found: ProcessHandle?
        try await waitUntil("photolibd-inotify to run") {
            found = try ChildProcesses.pinned(childOf: parent, named: "photolibd-inotify")
            return found != nil
        }
        return found!
    }
}
