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

    @Test("a helper killed while it holds unread events is replaced at once: watches are rebuilt, the library rescanned, nothing lost")
    func killedHelperLosesNothing() async throws {
        let daemon = try await RunningDaemon.startedByOwner { library in
            try library.write("a/1.jpg")
            try library.write("a/2.jpg")
        }
        defer { daemon.stopLater() }
        try daemon.addApp("org.example.All", "authorized")
        let view = daemon.view("org.example.All")
        try await waitUntil("the view to be built") { daemon.library.files(below: view) == ["a/1.jpg", "a/2.jpg"] }
        let before = try daemon.assets()
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
        let after = try daemon.assets()
        #expect(after["a/1 renamed.jpg"] == before["a/1.jpg"], "the renamed photo kept its ID: \(before) → \(after)")
        #expect(after["a/2.jpg"] == nil && after["b/3.jpg"] != nil)
        #expect(daemon.log.contains("photolibd-inotify was killed by signal 9"), "\(daemon.log)")
        #expect(daemon.log.contains("started another"))
        // The subscriber hears the reload a rescan gives.
        var reload = false
        for _ in 0..<20 where !reload { reload = try !events.nextChange().incremental }
        #expect(reload, "no reload after the helper was replaced")

        // The new helper follows the library live: a photo in a new album reaches the view.
        let replacement = try await pinnedHelper(of: daemon)
        #expect(try !helper.isAlive() && replacement.pid != helper.pid)
        try daemon.library.write("c/4.jpg")
        try await waitUntil("a new photo after the replacement") { daemon.library.files(below: view).contains("c/4.jpg") }
        #expect(try daemon.ok("status").contains(": ready"))
    }

    @Test("without photolibd-inotify beside it or in libexec, the daemon refuses to start and says where it looked")
    func missingHelper() throws {
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
                outcome = try run(daemonCopy, arguments, timeout: 60)
            } catch where "\(error)".contains("Text file busy") && attempt < 50 {
                usleep(100_000)  // ETXTBSY lasts only until that child execs
            }
        }
        let result = outcome!
        #expect(result.status != 0)
        #expect(result.stderr.contains("photolibd-inotify, which photolibd starts itself, is not an executable at \(directory)/photolibd-inotify or \(library.root)/libexec/photolibd/photolibd-inotify"),
                "\(result.stderr)")
    }

    /// The daemon's running helper, pinned by a pidfd (never signalled by a bare number).
    private func pinnedHelper(of daemon: RunningDaemon) async throws -> ProcessHandle {
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
