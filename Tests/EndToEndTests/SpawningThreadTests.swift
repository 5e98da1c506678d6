import Foundation
import Glibc
import Synchronization
import Testing

/// The harness itself: a sandbox a test starts lives until the test stops it, whatever thread started it.
@Suite("The test harness")
struct SpawningThreadTests {
    @Test("a bwrap --die-with-parent sandbox started from a thread that then ends keeps running (the file-dialog client CI lost)")
    func sandboxOutlivesTheThreadThatAskedForIt() async throws {
        let started = Mutex<(child: pid_t, thread: pid_t)?>(nil)
        let mayEnd = DispatchSemaphore(value: 0)
        let asker = Thread {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            let child = try? spawnChild("/usr/bin/bwrap", ["--dev-bind", "/", "/", "--die-with-parent", "/bin/sleep", "120"],
                                        environment: [:], actions: &actions, ownProcessGroup: false)
            // This thread's id, as /proc names it ("PID/task/TID").
            let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
                .flatMap { pid_t(($0 as NSString).lastPathComponent) }
            started.withLock { $0 = child.flatMap { child in thread.map { (child, $0) } } }
            mayEnd.wait()
        }
        asker.start()
        try await waitUntil("the thread to start its sandbox") { started.withLock { $0 != nil } }
        let (child, thread) = try #require(started.withLock { $0 })
        // bwrap asks for the parent-death signal once it runs; it runs the command after that.
        try await waitUntil("the sandbox to run its command") {
            let children = (try? String(contentsOfFile: "/proc/\(child)/task/\(child)/children", encoding: .utf8)) ?? ""
            return !children.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        mayEnd.signal()
        try await waitUntil("the thread that started it to end") { !FileManager.default.fileExists(atPath: "/proc/self/task/\(thread)") }
        // Had the kernel sent the parent-death signal when the thread ended, it was SIGKILL, before ours.
        kill(child, SIGTERM)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7f == SIGTERM, "the sandbox ended by signal \(status & 0x7f), not by ours (\(SIGTERM))")
    }
}
