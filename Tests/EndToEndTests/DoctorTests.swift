import Foundation
import Glibc
import PhotoLibCore
import PhotoLibSystem
import Testing

/// `photolibctl doctor` on real setups, healthy and deliberately broken.
@Suite("photolibctl doctor", .serialized)
struct DoctorTests {
    static var ctl: String { RunningDaemon.buildDirectory + "/photolibctl" }

    /// The outcome doctor printed for each check, by name.
    static func outcomes(_ stdout: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[1].hasSuffix(":") else { continue }
            result[String(parts[1].dropLast())] = String(parts[0])
        }
        return result
    }

    @Test("a healthy running setup: every check passes (or warns) and doctor exits 0")
    func healthy() async throws {
        let library = try TestLibrary()
        try library.write("a/1.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        let result = try await daemon.ctl("doctor")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let outcomes = Self.outcomes(result.stdout)
        #expect(outcomes.count == 16, "\(result.stdout)")
        // Hard links or clones, whichever /tmp's filesystem allows, and why.
        #expect(result.stdout.contains("Views hold ") && result.stdout.contains("(view_mode is \"auto\" and the views' filesystem ("), "\(result.stdout)")
        for name in ["daemon", "library", "views-mount", "view-entries", "view-permissions", "view-reach", "writable-originals", "refused-originals", "location-withheld", "socket", "flatpak-apps", "pictures-folders"] {
            #expect(outcomes[name] == "pass", "\(name): \(result.stdout)")
        }
        let json = try await daemon.ctl("doctor", "--json")
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(decoded?.count == 16)
    }

    @Test("a group-writable original and an app uid that cannot reach the socket are named while the daemon runs")
    func brokenWhileRunning() async throws {
        let library = try TestLibrary()
        try library.write("a/ok.jpg")
        try library.write("a/shared.jpg")
        chmod(library.path("a/shared.jpg"), 0o664)
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp("org.example.Viewer", "authorized", uid: 4242)  // the test root is 0700: uid 4242 cannot get in
        let result = try await daemon.ctl("doctor")
        #expect(result.status == 1)
        let outcomes = Self.outcomes(result.stdout)
        #expect(outcomes["writable-originals"] == "FAIL")
        #expect(result.stdout.contains("1 original can be written by group, others or an ACL entry, so no app is given it: a/shared.jpg."))
        #expect(outcomes["socket"] == "FAIL")
        #expect(result.stdout.contains("Apps with their own uid (4242) cannot reach \(library.socket): uid 4242 cannot enter \(library.root)"))
        #expect(outcomes["views-mount"] == "pass")

        // An ACL entry letting uid 4242 (and nobody else) enter is enough: the
        // check judges ACLs and groups, not just the "others" bits.
        let root = try Directory.open(path: library.root)
        defer { root.close() }
        try AccessControl.apply(ViewAccessList(reader: 4242), to: root)
        let granted = try await daemon.ctl("doctor")
        #expect(Self.outcomes(granted.stdout)["socket"] == "pass", "\(granted.stdout)")
    }

    @Test("views on another mount, with the daemon refusing to start: doctor names each failure from the flags alone", arguments: [
        "mount --bind \"$R/real\" \"$R/state/views\"", "mount -t tmpfs none \"$R/state/views\"",
    ])
    func brokenMount(mountCommand: String) async throws {
        guard getuid() == 0 else {
            Issue.record("this test mounts in a private mount namespace and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        try library.write("a/1.jpg")
        try library.write("b/writable.png")
        chmod(library.path("b/writable.png"), 0o666)
        // The mount exists only in this namespace. Views are left to follow --state-dir.
        let script = """
            R='\(library.root)'
            mkdir -p "$R/real" "$R/state/views" && \(mountCommand) && exec '\(Self.ctl)' doctor \
              --library "$R/lib" --state-dir "$R/state" --socket "$R/sock"
            """
        let result = try await run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let outcomes = Self.outcomes(result.stdout)
        #expect(outcomes["daemon"] == "FAIL")
        #expect(result.stdout.contains("photolibd is not running"))
        #expect(outcomes["views-mount"] == "FAIL")
        #expect(result.stdout.contains("The views directory \(library.root)/state/views is on another mount than the library"))
        #expect(outcomes["writable-originals"] == "FAIL")
        #expect(result.stdout.contains("b/writable.png"))
        #expect(outcomes["library"] == "pass")
        #expect(outcomes["inotify-watches"] == "pass")
    }

    @Test("a bad config file stops doctor with the file, line and key, like the daemon")
    func badConfig() async throws {
        let library = try TestLibrary()
        let config = library.root + "/bad.toml"
        try "library = \"/x\"\nviews_dirr = \"/y\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await run(Self.ctl, ["doctor", "--config", config, "--socket", library.socket])
        #expect(result.status == 1)
        #expect(result.stderr.contains(config))
        #expect(result.stderr.contains("bad.toml:2:"))
        #expect(result.stderr.contains("views_dirr"))
    }
}
