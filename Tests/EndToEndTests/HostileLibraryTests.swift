import Foundation
import Testing

@Suite("Hostile library", .serialized)
struct HostileLibraryTests {
    /// scripts/hostile-library does the work (it is also run by hand with
    /// 10,000+ swaps on a release build); CI runs it with fewer swaps.
    @Test("symlinks, special files, hostile names, PATH_MAX nesting and an album swapped for a symlink mid-rescan: no hang, no foreign inode in a view, one entry per photo")
    func hostileLibrary() async throws {
        guard getuid() == 0 else {
            Issue.record("this test makes a device node and files owned by another uid, and must run as root (CI does)")
            return
        }
        let script = RunningDaemon.script("hostile-library")
        // Each rescan may wait 300 s behind the swaps' events before the script calls it a hang (its
        // RESCAN_WAIT); alone the run takes some 20 s, and it reports each rescan's wait.
        let result = try await run("/usr/bin/python3", [script, "--swaps", "500", "--bin", RunningDaemon.buildDirectory], timeout: 1_200)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((figures?["swaps"] as? Int ?? 0) >= 500, "\(result.stdout)")
        // a/1.jpg, the 6 names, deep.jpg, 5 in the swapped album, plus the churn files left at the end.
        #expect((figures?["viewEntries"] as? Int ?? 0) >= 13, "\(result.stdout)")
    }
}
