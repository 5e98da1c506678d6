import Foundation
import Glibc
import Testing

@Suite("photolibctl rescan and the inotify watch limit", .serialized)
struct RescanTests {
    @Test("rescan re-walks the library and repairs a view damaged behind the daemon's back")
    func repairsView() async throws {
        let library = try TestLibrary()
        for name in ["a/1.jpg", "a/2.jpg", "b/3.png"] { try library.write(name) }
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp("org.example.Viewer", "authorized")
        let entry = await daemon.view("org.example.Viewer") + "/a/1.jpg"
        try await waitUntil("the view to be built") { FileManager.default.fileExists(atPath: entry) }
        unlink(entry)
        let output = try await daemon.ok("rescan")
        #expect(output.hasPrefix("Rescanned 3 assets in 3 directories in "), "\(output)")
        #expect(library.inode(entry) == library.inode(library.path("a/1.jpg")))
        let json = try await JSONSerialization.jsonObject(with: Data(try daemon.ok("rescan", "--json").utf8)) as? [String: Any]
        #expect(json?["assets"] as? Int == 3)
        #expect(json?["failedWatches"] as? Int == 0)
    }

    /// The daemon runs in its own user namespace, whose inotify watch limit
    /// (/proc/sys/user/max_inotify_watches) is lowered there alone: the rest
    /// of the machine, and the other tests, keep theirs.
    @Test("fewer watches than directories: the log names the sysctl, status says degraded, doctor fails; raising it and rescanning recovers")
    func watchLimit() async throws {
        guard getuid() == 0 else {
            Issue.record("this test makes a user namespace mapped to root and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        for index in 0..<12 { try library.write("album\(index)/photo.jpg") }
        let daemon = try RunningDaemon(library)
        // 5 watches for 13 directories.
        try await daemon.start(launcher: ["/usr/bin/unshare", "-U", "-r", "/bin/sh", "-c",
                                          "echo 5 > /proc/sys/user/max_inotify_watches && exec \"$0\" \"$@\""])
        try await daemon.addApp("org.example.Viewer", "authorized")
        let status = try await daemon.ok("status")
        #expect(status.contains(": degraded"), "\(status)")
        #expect(status.contains("failed: raise fs.inotify.max_user_watches"))
        #expect(daemon.log.contains("raise fs.inotify.max_user_watches"))
        let doctor = try await daemon.ctl("doctor")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("FAIL  inotify-watches: photolibd could not watch"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("sysctl -w fs.inotify.max_user_watches="))

        let pid = String(daemon.pid)
        let raised = try await run("/usr/bin/nsenter", ["-t", pid, "-U", "--preserve-credentials", "/bin/sh", "-c",
                                                  "echo 1000 > /proc/sys/user/max_inotify_watches"])
        #expect(raised.status == 0, "\(raised.stderr)")
        let output = try await daemon.ok("rescan")
        #expect(output.hasPrefix("Rescanned 12 assets in 13 directories"), "\(output)")
        #expect(try await daemon.ok("status").contains(": ready"))
        // Every directory is watched again: a new photo in the last album reaches the view.
        try library.write("album11/new.jpg")
        let entry = await daemon.view("org.example.Viewer") + "/album11/new.jpg"
        try await waitUntil("the new photo in the view") { FileManager.default.fileExists(atPath: entry) }
    }

    /// The same namespace, five watches for thirteen directories, and rounds every second: what
    /// happens where no watch is reaches the index and the view within a few rounds.
    @Test("directories past the watch limit are followed by verification rounds: photos added, renamed (keeping their IDs) and removed there reach the view")
    func roundsPastTheWatchLimit() async throws {
        guard getuid() == 0 else {
            Issue.record("this test makes a user namespace mapped to root and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        let albums = (0..<12).map { "album\($0)" }
        for album in albums { try library.write("\(album)/photo.jpg") }
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("verify_interval = 1\n")],
                               launcher: ["/usr/bin/unshare", "-U", "-r", "/bin/sh", "-c",
                                          "echo 5 > /proc/sys/user/max_inotify_watches && exec \"$0\" \"$@\""])
        defer { daemon.stopLater() }
        try await daemon.addApp("org.example.Viewer", "authorized")
        let view = await daemon.view("org.example.Viewer")
        try await waitUntil("a verification round, in status", timeout: 30) { await (try? daemon.ok("status"))?.contains("rounds:   every") == true }
        let status = try await daemon.ok("status")
        #expect(status.contains("no inotify watch"), "\(status)")
        let before = try await daemon.assets()

        for album in albums {
            try library.write("\(album)/new.jpg", contents: String(repeating: "x", count: 2_000))
            #expect(rename(library.path("\(album)/photo.jpg"), library.path("\(album)/renamed.jpg")) == 0)
        }
        try await waitUntil("every album's new and renamed photo in the view", timeout: 60) {
            albums.allSatisfy { album in
                FileManager.default.fileExists(atPath: "\(view)/\(album)/new.jpg")
                    && FileManager.default.fileExists(atPath: "\(view)/\(album)/renamed.jpg")
                    && !FileManager.default.fileExists(atPath: "\(view)/\(album)/photo.jpg")
            }
        }
        let after = try await daemon.assets()
        for album in albums {
            #expect(after["\(album)/renamed.jpg"] == before["\(album)/photo.jpg"], "\(album): renamed where no watch saw it, it keeps its ID")
        }
        for album in albums { #expect(unlink(library.path("\(album)/new.jpg")) == 0) }
        try await waitUntil("every removed photo gone from the view", timeout: 60) {
            albums.allSatisfy { !FileManager.default.fileExists(atPath: "\(view)/\($0)/new.jpg") }
        }
        #expect(try await daemon.assets().count == 12)
        #expect(daemon.log.contains("raise fs.inotify.max_user_watches"))
    }
}
