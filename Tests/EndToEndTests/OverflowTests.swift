import Foundation
import Glibc
import PhotoLibProtocol
import Testing
import TestSupport

@Suite("Kernel queue overflow", .serialized)
struct OverflowTests {
    static let sysctl = "/proc/sys/fs/inotify/max_queued_events"

    @Test("a burst beyond the inotify queue makes the daemon rescan, subscribers are told to reload, and nothing is lost")
    func overflowRescans() async throws {
        guard getuid() == 0 else {
            Issue.record("this test lowers fs.inotify.max_queued_events and must run as root (CI does)")
            return
        }
        let original = try String(contentsOfFile: Self.sysctl, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        // The queue size is fixed when the daemon creates its inotify instance, and the setting is
        // the machine's: every other test's inotify instance made meanwhile gets it too. So it is
        // lowered only until the daemon's library watch exists (a watch on the library's root, in
        // its fdinfo), not until it is ready, and restored whatever happens.
        var root = stat()
        guard stat(library.library, &root) == 0 else { throw TestFailure("cannot stat \(library.library)") }
        try "64".write(toFile: Self.sysctl, atomically: false, encoding: .utf8)
        do {
            try await daemon.start { pid in
                defer { try? original.write(toFile: Self.sysctl, atomically: false, encoding: .utf8) }
                try await waitUntil("the daemon to watch the library's root", timeout: 60) {
                    RunningDaemon.watches(pid, inode: UInt64(root.st_ino))
                }
            }
        } catch {
            try original.write(toFile: Self.sysctl, atomically: false, encoding: .utf8)
            throw error
        }
        #expect(try String(contentsOfFile: Self.sysctl, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == original)

        try await daemon.addApp("org.example.All", "authorized")
        try library.makeDirectory(library.path("burst"))
        // Once a first file there is linked, the directory is watched: events
        // for the burst must then queue (a directory not yet watched would be
        // listed instead, and nothing would overflow).
        try library.write("burst/first.jpg")
        try await waitUntil("the burst directory to be watched") {
            await library.entries(daemon.view("org.example.All") + "/burst").count == 1
        }
        let events = try EventReader(daemon, app: "org.example.All")
        // Paused, the daemon cannot read: the 64-event queue must overflow.
        let process = try #require(daemon.process)
        process.signal(SIGSTOP)
        for index in 0..<3_000 { try library.write(Array("burst/p\(index).jpg".utf8)) }
        process.signal(SIGCONT)
        try await waitUntil("all 3,001 files after the rescan", timeout: 120) {
            await library.entries(daemon.view("org.example.All") + "/burst").count == 3_001
        }
        #expect(daemon.log.contains("overflowed"))
        #expect(try await daemon.assetList().count == 3_001)
        // Events from before the overflow may come first; then the reload.
        var reload: ChangeEvent?
        for _ in 0..<50 {
            let change = try await events.nextChange()
            if !change.incremental {
                reload = change
                break
            }
        }
        #expect(reload != nil, "no reload after the overflow")
    }
}
