import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// Views as reflink clones (`view_mode`): on btrfs and XFS filesystems of their
/// own (loop images), with the daemon run by the library's ordinary owner, an
/// app's entry is an inode of its own with link count one, so it learns nothing
/// of the other apps that hold the photo; on ext4, `auto` falls back to links and says so.
@Suite("Views as clones", .serialized)
struct CloneViewTests {
    static let one = "org.example.One"
    static let two = "org.example.Two"

    static func status(_ path: String) throws -> stat {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw TestFailure("lstat \(path): errno \(errno)") }
        return st
    }

    static func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Writes over a file in place (no new inode), as an editor that saves in place does.
    static func overwrite(_ path: String, with text: String) throws {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { throw TestFailure("open \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw TestFailure("write \(path): errno \(errno)") }
    }

    @Test("apps sharing a photo each get an inode of their own with link count one; an edit is cloned again, atomically, with one change each; an open old clone keeps its bytes",
          arguments: [ScratchFilesystem.Kind.btrfs, .xfs])
    func sharedPhoto(_ kind: ScratchFilesystem.Kind) async throws {
        let versionOne = String(repeating: "version one of the photo; ", count: 40_000)  // about 1 MiB
        let versionTwo = String(repeating: "version two, edited in place; ", count: 30_000)
        let media = try await LocationTests.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let daemon = try await RunningDaemon.startedByOwner(on: try ScratchFilesystem(kind, megabytes: 512),
                                                            configuration: "view_mode = \"clones\"\n") { lib in
            try lib.write("Trip/shared.jpg", contents: versionOne)
            try lib.write("Trip/other.jpg", contents: "another photo")
            try lib.copy(media + "/photo.jpg", to: "Trip/geotagged.jpg")
        }
        defer { daemon.stopLater() }
        let lib = daemon.library
        let status = try await daemon.status()
        #expect(status.viewMode == "clones")
        #expect(status.viewModeReason?.contains(kind.rawValue) == true, "\(status.viewModeReason ?? "")")
        #expect(try await daemon.ok("status").contains("entries:  reflink clones"))

        let ids = try await daemon.assets()
        for app in [Self.one, Self.two] {
            try await daemon.addApp(app, "limited")
            try await daemon.ok("select", app, ids["Trip/shared.jpg"]!)
        }
        func entry(_ app: String) async throws -> String {
            guard let id = try await daemon.appIDs(app)["Trip/shared.jpg"] else { throw TestFailure("\(app) was not given the photo") }
            return await daemon.view(app) + "/\(id).jpg"
        }
        try await waitUntil("both views hold the photo") {
            for app in [Self.one, Self.two] where !FileManager.default.fileExists(atPath: try await entry(app)) { return false }
            return true
        }
        let original = try Self.status(lib.path("Trip/shared.jpg"))
        let first = try await Self.status(try entry(Self.one))
        let second = try await Self.status(try entry(Self.two))
        // What a limited app could learn from links: another app's link raises the count; a shared inode matches photos.
        #expect(first.st_nlink == 1 && second.st_nlink == 1, "each clone is linked once")
        #expect(Set([first.st_ino, second.st_ino, original.st_ino]).count == 3, "three inodes: the original and one per app")
        #expect(original.st_nlink == 1, "the original is linked nowhere else either")
        #expect(first.st_mtim.tv_sec == original.st_mtim.tv_sec && first.st_mtim.tv_nsec == original.st_mtim.tv_nsec,
                "the clone has the original's time, which list tells the app")
        let entries = (one: try await entry(Self.one), two: try await entry(Self.two))
        #expect(try Self.contents(entries.one) == versionOne && Self.contents(entries.two) == versionOne)

        // An edit in place: each app hears of it once, and reads the new version; an app that
        // had the old clone open reads the old bytes to the end (a clone is a file of its own).
        let events = try [Self.one, Self.two].map { try EventReader(daemon, app: $0) }
        let heldOpen = try await FileHandle(forReadingFrom: URL(fileURLWithPath: try entry(Self.one)))
        defer { try? heldOpen.close() }
        try Self.overwrite(lib.path("Trip/shared.jpg"), with: versionTwo)
        for (app, reader) in zip([Self.one, Self.two], events) {
            let change = try await reader.nextChange()
            let id = try await daemon.appIDs(app)["Trip/shared.jpg"]
            #expect(change.changed.map(\.id) == [id], "\(app): \(change)")
            #expect(change.inserted.isEmpty && change.removed.isEmpty)
        }
        try await waitUntil("both views hold the new version") {
            for app in [Self.one, Self.two] where (try? Self.contents(try await entry(app))) != versionTwo { return false }
            return true
        }
        // A regular file: the read ends at its end, never waits.
        #expect(String(decoding: try heldOpen.readToEnd() ?? Data(), as: UTF8.self) == versionOne)
        let recloned = try await Self.status(try entry(Self.one))
        #expect(recloned.st_nlink == 1 && recloned.st_ino != first.st_ino, "a new clone, renamed over the old one")
        // No second change for the same edit: the next one either app hears is the next thing done.
        try await daemon.ok("select", Self.one, ids["Trip/other.jpg"]!)
        let next = try await events[0].nextChange()
        #expect(next.changed.isEmpty && next.inserted.count == 1, "\(next)")
        #expect(await lib.entries(daemon.view(Self.one)).allSatisfy { !String(decoding: $0, as: UTF8.self).hasPrefix(".") },
                "no temporary clone left in the view")

        // Apps without location get clones of the one copy without location, not links to it.
        for app in ["org.example.Quiet", "org.example.Hushed"] {
            try await daemon.ok("app", "add", app, "--uid", "4242", "--location", "none")
            try await daemon.ok("authorize", app, "limited")
            try await daemon.ok("select", app, ids["Trip/geotagged.jpg"]!)
        }
        var quiet: [String] = []
        try await waitUntil("both views without location hold the photo") {
            quiet = []
            for app in ["org.example.Quiet", "org.example.Hushed"] {
                quiet.append(await daemon.view(app) + "/\(try await daemon.appIDs(app)["Trip/geotagged.jpg"] ?? "missing").jpg")
            }
            return quiet.allSatisfy { FileManager.default.fileExists(atPath: $0) }
        }
        let derivatives = lib.entries(lib.views + "/.derivatives").map { String(decoding: $0, as: UTF8.self) }
        #expect(derivatives.count == 1, "\(derivatives)")
        let derivative = lib.views + "/.derivatives/" + (derivatives.first ?? "")
        let shared = try Self.status(derivative)
        let quietStats = try quiet.map(Self.status)
        #expect(quietStats.allSatisfy { $0.st_nlink == 1 && $0.st_ino != shared.st_ino } && quietStats[0].st_ino != quietStats[1].st_ino)
        #expect(shared.st_nlink == 1, "the shared copy is kept for its clones though no view links it")
        #expect(try quiet.allSatisfy { try Data(contentsOf: URL(fileURLWithPath: $0)) == Data(contentsOf: URL(fileURLWithPath: derivative)) })
        #expect(try await LocationTests.location(quiet[0]) == [])

        // The original deleted: every clone of it goes.
        #expect(unlink(lib.path("Trip/shared.jpg")) == 0)
        try await waitUntil("the photo gone from both views") {
            let one = await daemon.viewEntries(Self.one), two = await daemon.viewEntries(Self.two)
            return one.count == 1 && two.isEmpty
        }
    }

    @Test("1,000 clones of 4 MiB photos take no room beyond metadata", arguments: [ScratchFilesystem.Kind.btrfs, .xfs])
    func noRoom(_ kind: ScratchFilesystem.Kind) async throws {
        let photos = 250
        let apps = ["org.example.A", "org.example.B", "org.example.C", "org.example.D"]
        let filesystem = try await ScratchFilesystem(kind, megabytes: 2048)
        let photo = String(repeating: "0123456789abcdef", count: 4 << 16)  // 4 MiB
        let daemon = try await RunningDaemon.startedByOwner(on: filesystem, configuration: "view_mode = \"clones\"\n") { lib in
            for index in 0..<photos { try lib.write("Roll/IMG_\(index).jpg", contents: "\(index)" + photo.dropFirst("\(index)".count)) }
        }
        defer { daemon.stopLater() }
        try await waitUntil("the library indexed") { try await daemon.status().assets == photos }
        let before = try await filesystem.bytesUsed()
        for app in apps { try await daemon.addApp(app, "authorized") }
        try await waitUntil("every view full", timeout: 120) {
            for app in apps where await daemon.viewEntries(app).count != photos { return false }
            return true
        }
        let after = try await filesystem.bytesUsed()
        let grown = after - before
        let cloned = Int64(photos * apps.count) * Int64(photo.utf8.count)
        print("clones on \(kind): \(photos * apps.count) entries of 4 MiB (\(cloned >> 20) MiB if copied) grew the filesystem by \(grown >> 10) KiB")
        #expect(grown < cloned / 100, "\(grown) bytes for \(cloned) bytes of clones: more than metadata")
        let entry = try await Self.status(daemon.view(apps[0]) + "/Roll/IMG_7.jpg")
        #expect(entry.st_nlink == 1 && entry.st_size == Int(photo.utf8.count))
    }

    @Test("a view_mode changed between starts converts the views: links become clones, and clones links again")
    func switching() async throws {
        let daemon = try await RunningDaemon.startedByOwner(on: try ScratchFilesystem(.xfs), configuration: "view_mode = \"links\"\n") { lib in
            try lib.write("Trip/a.jpg", contents: "first photo")
            try lib.write("Trip/b.jpg", contents: "second photo")
        }
        defer { daemon.stopLater() }
        #expect(try await daemon.status().viewModeReason == "view_mode is \"links\"")
        try await daemon.addApp(Self.one, "authorized")
        try await waitUntil("the view filled") { await daemon.viewEntries(Self.one) == ["Trip/a.jpg", "Trip/b.jpg"] }
        func links() async throws -> [Int] {
            let view = await daemon.view(Self.one)
            return try ["Trip/a.jpg", "Trip/b.jpg"].map { Int(try Self.status(view + "/" + $0).st_nlink) }
        }
        #expect(try await links() == [2, 2])
        for (mode, expected) in [("clones", [1, 1]), ("links", [2, 2])] {
            await daemon.stop()
            try await daemon.start(extraArguments: ["--config", try daemon.library.writeConfiguration("view_mode = \"\(mode)\"\n")])
            #expect(try await daemon.status().viewMode == mode)
            #expect(try await links() == expected, "\(mode)")
            #expect(try await Self.contents(daemon.view(Self.one) + "/Trip/a.jpg") == "first photo")
            #expect(await daemon.viewEntries(Self.one) == ["Trip/a.jpg", "Trip/b.jpg"], "nothing left over")
        }
    }

    @Test("an original its owner may not read cannot be cloned: it is refused alone and named, and shared once readable again")
    func unreadableOriginal() async throws {
        let daemon = try await RunningDaemon.startedByOwner(on: try ScratchFilesystem(.xfs), configuration: "view_mode = \"clones\"\n") { lib in
            try lib.write("Trip/a.jpg", contents: "readable")
            try lib.write("Trip/locked.jpg", contents: "the owner took away their own read")
            chmod(lib.path("Trip/locked.jpg"), 0o200)
        }
        defer { daemon.stopLater() }
        // Location precise: the originals themselves are cloned (for an app without location, an original
        // that cannot be read cannot be checked for one either, and is withheld instead).
        try await daemon.ok("app", "add", Self.one, "--uid", "4242", "--location", "precise")
        try await daemon.ok("authorize", Self.one, "authorized")
        try await waitUntil("the readable photo in the view, the other refused") {
            let entries = await daemon.viewEntries(Self.one), refused = try await daemon.assetInfos("--refused")
            return entries == ["Trip/a.jpg"] && refused.map(\.path) == ["Trip/locked.jpg"]
        }
        let refused = try await daemon.assetInfos("--refused")
        #expect(refused.first?.refused == "unreadableByOwner")
        #expect(refused.first?.refusedBecause?.contains("chmod u+r") == true, "\(refused)")
        let listed = try PhotoLibConnection(socketPath: daemon.library.socket).call(.list, OptionalAppParams(app: Self.one), returning: ListResult.self)
        #expect(listed.assets.map(\.entry) == ["Trip/a.jpg"], "the app is told only of what its view holds")
        chmod(daemon.library.path("Trip/locked.jpg"), 0o644)
        try await waitUntil("the photo shared once its owner may read it") {
            let entries = await daemon.viewEntries(Self.one), refused = try await daemon.assetInfos("--refused")
            return entries == ["Trip/a.jpg", "Trip/locked.jpg"] && refused.isEmpty
        }
        #expect(try await Self.contents(daemon.view(Self.one) + "/Trip/locked.jpg") == "the owner took away their own read")
    }

    @Test("auto on ext4 falls back to hard links and says why; clones asked for by name there refuse to start, saying what to do")
    func ext4() async throws {
        let daemon = try await RunningDaemon.startedByOwner(on: try ScratchFilesystem(.ext4)) { lib in
            try lib.write("Trip/a.jpg")
        }
        let status = try await daemon.status()
        #expect(status.viewMode == "links")
        #expect(status.viewModeReason?.contains("auto") == true && status.viewModeReason?.contains("ext4") == true
                && status.viewModeReason?.contains("cannot clone") == true, "\(status.viewModeReason ?? "")")
        #expect(daemon.log.contains("View entries are hard links: view_mode is \"auto\" and the views' filesystem (ext4) cannot clone"))
        try await daemon.addApp(Self.one, "authorized")
        try await waitUntil("the view filled") { await daemon.viewEntries(Self.one) == ["Trip/a.jpg"] }
        #expect(try await Self.status(daemon.view(Self.one) + "/Trip/a.jpg").st_nlink == 2, "a hard link")
        await daemon.stop()

        let lib = daemon.library
        let configuration = try lib.writeConfiguration("view_mode = \"clones\"\n")
        let refused = try await run("/usr/bin/timeout", ["60"] + lib.owner!.command(try ReachableCopies.binary("photolibd")) + [
            "--library", lib.library, "--views-dir", lib.views, "--state-dir", lib.state, "--socket", lib.socket, "--config", configuration])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("view_mode is \"clones\", but the views directory \(lib.views) is on ext4, which cannot clone files"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("view_mode = \"auto\""))
        #expect(try await Self.status(lib.views + "/" + URL(fileURLWithPath: daemon.view(Self.one)).lastPathComponent + "/Trip/a.jpg").st_nlink == 2,
                "nothing in the views was touched")
    }
}
