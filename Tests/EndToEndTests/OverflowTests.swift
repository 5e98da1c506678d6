import Foundation
import Glibc
import Testing

@Suite("Kernel queue overflow", .serialized)
struct OverflowTests {
    static let sysctl = "/proc/sys/fs/inotify/max_queued_events"

    @Test("a burst beyond the inotify queue makes the daemon rescan, and nothing is lost")
    func overflowRescans() async throws {
        guard getuid() == 0 else {
            Issue.record("this test lowers fs.inotify.max_queued_events and must run as root (CI does)")
            return
        }
        let original = try String(contentsOfFile: Self.sysctl, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        // The queue size is fixed when the daemon creates its inotify instance:
        // lower it only for that moment, and restore it whatever happens.
        try "64".write(toFile: Self.sysctl, atomically: false, encoding: .utf8)
        do {
            try await daemon.start()
        } catch {
            try original.write(toFile: Self.sysctl, atomically: false, encoding: .utf8)
            throw error
        }
        try original.write(toFile: Self.sysctl, atomically: false, encoding: .utf8)

        try daemon.addApp("org.example.All", "authorized")
        try library.makeDirectory(library.path("burst"))
        for index in 0..<3_000 { try library.write(Array("burst/p\(index).jpg".utf8)) }
        try await waitUntil("all 3,000 files after the rescan", timeout: 120) {
            library.entries(daemon.view("org.example.All") + "/burst").count == 3_000
        }
        #expect(daemon.log.contains("overflowed"))
        #expect(try daemon.assetList().count == 3_000)
    }
}
