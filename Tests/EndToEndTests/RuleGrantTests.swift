import Foundation
import Glibc
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// Rule grants (SPEC §9): `select APP --taken-from DATE --taken-to DATE
/// [--type]`, a live selection by when each photo or video was taken (EXIF
/// DateTimeOriginal, a video's creation time, else the file's mtime), on real
/// files, with the daemon run by the library's owner.
@Suite("Rule grants", .serialized)
struct RuleGrantTests {
    static let frame = "org.example.Frame"
    static let player = "org.example.Player"

    /// Writes tags in place, or with `-o` into a new file (then the source stays: no -overwrite_original, which would move it).
    static func exiftool(_ arguments: [String]) async throws {
        let result = try await run("/usr/bin/exiftool", ["-q"] + (arguments.contains("-o") ? [] : ["-overwrite_original"]) + arguments)
        guard result.status == 0 else { throw TestFailure("exiftool \(arguments): \(result.stderr)") }
    }

    static func setModified(_ path: String, _ seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test("a span of capture dates is a live selection: EXIF dates, a video's creation time, mtime otherwise; new and edited photos follow it")
    func ruleGrantIsLive() async throws {
        let media = try await LocationTests.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        try await Self.exiftool(["-DateTimeOriginal=2023:01:01 12:00:00", "-o", media + "/old.jpg", media + "/photo.jpg"])
        try await Self.exiftool(["-QuickTime:CreateDate=2024:07:15 08:00:00", media + "/clip.mp4"])
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.copy(media + "/photo.jpg", to: "Trip/july.jpg")           // DateTimeOriginal 2024-07-14
            try lib.copy(media + "/old.jpg", to: "Trip/old.jpg")              // 2023-01-01
            try lib.copy(media + "/plain.jpg", to: "Trip/plain.jpg")          // no date: its mtime, set to 2024-07-20
            Self.setModified(lib.path("Trip/plain.jpg"), 1_721_476_800)
            try lib.copy(media + "/clip.mp4", to: "Trip/clip.mp4")            // mvhd creation 2024-07-15
        }
        let lib = daemon.library
        try await daemon.addApp(Self.frame, "limited")
        try await daemon.addApp(Self.player, "limited")
        // Each view names its entries by its app's own IDs.
        let ids = try await daemon.appIDs(Self.frame), playerIDs = try await daemon.appIDs(Self.player)
        func entries(_ app: String) async -> Set<String> {
            await Set(daemon.viewEntries(app).map { String($0.prefix(16)) })
        }
        let july = try #require(ids["Trip/july.jpg"]), old = try #require(ids["Trip/old.jpg"])
        let plain = try #require(ids["Trip/plain.jpg"]), clip = try #require(ids["Trip/clip.mp4"])

        let made = try await daemon.ok("select", Self.frame, "--taken-from", "2024-07-01", "--taken-to", "2024-07-31")
        #expect(made.contains("rule 1"), "\(made)")
        #expect(await entries(Self.frame) == [july, plain, clip], "July's photos, the undated one by its mtime, and the video")
        try await daemon.ok("select", Self.player, "--taken-from", "2024-07-01", "--taken-to", "2024-07-31", "--type", "video")
        #expect(await entries(Self.player) == [try #require(playerIDs["Trip/clip.mp4"])])
        let selection = try await JSONDecoder().decode(SelectionResult.self, from: Data(try daemon.ok("selection", Self.frame, "--json").utf8))
        #expect(selection.rules?.count == 1)
        #expect(selection.rules?.first?.type == nil)
        #expect(await !entries(Self.frame).contains(old))

        // Live: a photo taken in the span joins the moment it is added, and the app hears it; one outside does not.
        let events = try EventReader(daemon, app: Self.frame)
        try lib.copy(media + "/photo.jpg", to: "Later/july2.jpg")
        try lib.copy(media + "/old.jpg", to: "Later/old2.jpg")
        var inserted: [ViewAsset] = []
        while inserted.isEmpty { inserted = try await events.nextChange().inserted }
        let july2 = try #require(try await daemon.appIDs(Self.frame)["Later/july2.jpg"])
        #expect(inserted.map(\.id) == [july2])
        try await waitUntil("the new July photo in the view") { await entries(Self.frame).contains(july2) }
        #expect(await !entries(Self.frame).contains(try #require(try daemon.appIDs(Self.frame)["Later/old2.jpg"])))

        // An edit of the date moves a photo out of the span; it leaves.
        try await Self.exiftool(["-DateTimeOriginal=2022:05:05 05:05:05", lib.path("Trip/july.jpg")])
        try await waitUntil("the redated photo to leave") { await !entries(Self.frame).contains(try #require(try daemon.appIDs(Self.frame)["Trip/july.jpg"])) }

        // Across a restart the rule and what it matches stay.
        await daemon.stop()
        try await daemon.start()
        let after = try await daemon.appIDs(Self.frame)
        #expect(await entries(Self.frame) == [try #require(after["Trip/plain.jpg"]), try #require(after["Trip/clip.mp4"]), july2])

        let wrong = try await daemon.ctl("select", Self.frame, "--taken-from", "2024-08-01", "--taken-to", "2024-07-01")
        #expect(wrong.status != 0 && wrong.stderr.contains("before --taken-to"))
        #expect(try await daemon.ctl("select", Self.frame, "--taken-from", "2024-08-01").stderr.contains("both"))
        try await daemon.ok("deselect", Self.frame, "--rules")
        #expect(await entries(Self.frame).isEmpty)
        #expect(await entries(Self.player) == [try #require(playerIDs["Trip/clip.mp4"])], "another app's rule stays")
    }
}
