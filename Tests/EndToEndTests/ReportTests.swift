import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// The access report (SPEC §9): opens through a view are counted, opens of
/// the same file another way are not, and the report is the owner's alone.
@Suite("Access report", .serialized)
struct ReportTests {
    static let viewer = (app: "org.example.Viewer", uid: 4271)   // authorized: the whole library
    static let frame = (app: "org.example.Frame", uid: 4272)     // limited: one photo

    func read(as uid: Int, _ path: String) async throws -> Bool {
        try await EndToEndTests.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/bin/cat", path]).status == 0
    }

    func report(_ daemon: RunningDaemon, _ arguments: String...) async throws -> ReportResult {
        try await JSONDecoder().decode(ReportResult.self, from: Data(try daemon.ctlOK(["report"] + arguments + ["--json"]).utf8))
    }

    @Test("each app's opens through its view are reported, once a minute per photo; opens through the library are not; the report is admin-only",
          arguments: [false, true])
    func opensThroughViews(asClones: Bool) async throws {
        // With views as clones (on XFS) too: each app's entry is then a file of its own, made outside the views.
        let daemon = try await RunningDaemon.startedByOwner(on: asClones ? try ScratchFilesystem(.xfs) : nil,
                                                            configuration: asClones ? "view_mode = \"clones\"\n" : nil) { lib in
            chmod(lib.root, 0o711)  // like /home: app uids pass through to their views
            try lib.write("Trips/a.jpg")
            try lib.write("b.jpg")
        }
        try await daemon.addApp(Self.viewer.app, "authorized", uid: Self.viewer.uid)
        try await daemon.addApp(Self.frame.app, "limited", uid: Self.frame.uid)
        try await daemon.ok("select", Self.frame.app, "b.jpg")
        let ids = try await daemon.assets()
        let a = try #require(ids["Trips/a.jpg"]), b = try #require(ids["b.jpg"])
        try await waitUntil("both views to be made") {
            let viewer = await daemon.viewEntries(Self.viewer.app), frame = await daemon.viewEntries(Self.frame.app)
            return viewer.count == 2 && frame.count == 1
        }
        #expect(try await report(daemon).entries.isEmpty, "making the views opens nothing")
        #expect(try await daemon.status().viewMode == (asClones ? "clones" : "links"))

        // The owner reads the originals: not an app's access.
        #expect(try await read(as: Int(try #require(daemon.library.owner).uid), daemon.library.path("Trips/a.jpg")))
        // Each app reads through its own view; the viewer twice (one line).
        let viewerView = await daemon.view(Self.viewer.app), frameView = await daemon.view(Self.frame.app)
        #expect(try await read(as: Self.viewer.uid, viewerView + "/Trips/a.jpg"))
        #expect(try await read(as: Self.viewer.uid, viewerView + "/Trips/a.jpg"))
        let frameEntry = try #require(await daemon.viewEntries(Self.frame.app).first)
        #expect(try await read(as: Self.frame.uid, frameView + "/" + frameEntry))

        try await waitUntil("both apps' opens in the report") { try await report(daemon).entries.count >= 2 }
        let lines = try await report(daemon).entries
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.app == Self.viewer.app && $0.asset == a && $0.how == "open" && $0.path == "Trips/a.jpg" })
        #expect(lines.contains { $0.app == Self.frame.app && $0.asset == b && $0.how == "open" && $0.path == "b.jpg" })
        #expect(try await report(daemon, Self.frame.app).entries.map(\.asset) == [b])
        #expect(try await report(daemon).retention == 7 * 86_400)
        let text = try await daemon.ok("report", "--since", "1h")
        #expect(text.contains("opened") && text.contains(Self.viewer.app) && text.contains("Trips/a.jpg"), "\(text)")

        // An app cannot read the report, even its own lines.
        let endpoint = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
            .first { $0.app == Self.frame.app }?.endpoint)
        let connection = try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 10)
        #expect(throws: PhotoLibError.self) { _ = try connection.call(.report, ReportParams(), returning: ReportResult.self) }
    }

    @Test("the report keeps what the retention allows: lines older than it are gone after a restart")
    func retention() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)
            try lib.write("a.jpg")
            try "[report]\nretention = \"2s\"\n".write(toFile: lib.root + "/photolibd.toml", atomically: true, encoding: .utf8)
            try lib.owner!.own(lib.root + "/photolibd.toml")
        }
        await daemon.stop()
        try await daemon.start(extraArguments: ["--config", daemon.library.root + "/photolibd.toml"])
        try await daemon.addApp(Self.viewer.app, "authorized", uid: Self.viewer.uid)
        try await waitUntil("the view") { await daemon.viewEntries(Self.viewer.app).count == 1 }
        #expect(try await read(as: Self.viewer.uid, daemon.view(Self.viewer.app) + "/a.jpg"))
        try await waitUntil("the open in the report") { try await report(daemon).entries.count == 1 }
        let at = try #require(try await report(daemon).entries.first?.at)
        await daemon.stop()
        try await waitUntil("the line to be older than the retention", timeout: 10) { Date().timeIntervalSince1970 > Double(at + 3) }
        try await daemon.start(extraArguments: ["--config", daemon.library.root + "/photolibd.toml"])
        #expect(try await report(daemon).entries.isEmpty)
    }

    @Test("after a restart, opens at every depth of a view are reported: the watches placed at the start reach the leaves and what is beside them")
    func opensAtEveryDepthAfterRestart() async throws {
        // Leaves (no sub-album) are not listed at the start where the link count says so (ext4 here):
        // an album beside sub-albums, one below two levels, a leaf beside a file, and the root.
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)
            for path in ["top.jpg", "A/a.jpg", "A/B/b.jpg", "A/B/C/c.jpg", "A/D/d.jpg", "E/e.jpg"] { try lib.write(path) }
        }
        try await daemon.addApp(Self.viewer.app, "authorized", uid: Self.viewer.uid)
        try await waitUntil("the view") { await daemon.viewEntries(Self.viewer.app).count == 6 }
        await daemon.stop()
        try await daemon.start()
        let view = await daemon.view(Self.viewer.app)
        let paths = ["top.jpg", "A/a.jpg", "A/B/b.jpg", "A/B/C/c.jpg", "A/D/d.jpg", "E/e.jpg"]
        for path in paths { #expect(try await read(as: Self.viewer.uid, view + "/" + path), "\(path)") }
        try await waitUntil("every open in the report") { try await report(daemon).entries.count >= paths.count }
        #expect(Set(try await report(daemon).entries.compactMap(\.path)) == Set(paths))
    }
}
