import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// Apps adding photos through their inboxes (SPEC §3, PhotoKit's creation
/// request), with the daemon run by the library's owner and each app writing
/// as its own uid, as an app with a uid of its own does.
@Suite("Adding photos through an inbox", .serialized)
struct ImportTests {
    static let camera = (app: "org.example.Camera", uid: 4251)   // limited: sees what it adds
    static let scanner = (app: "org.example.Scanner", uid: 4252) // add-only: sees nothing

    // Headers that pass the inbox's type check, and then bytes no decoder
    // would read: these apps are registered with --location precise, as
    // whether such files hold a location cannot be told (LocationTests covers that).
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0] + Array(repeating: 7, count: 500)
    static let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + Array(repeating: 1, count: 300)
    static let mp4: [UInt8] = [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8) + Array(repeating: 2, count: 300)

    /// Runs Python as the app's uid, as the app would write: `mode` is
    /// `rename` (written under a hidden name, then renamed in), `direct`,
    /// `symlink`, `fifo` or `hardlink` (to a file of its own elsewhere).
    func appWrites(_ uid: Int, inbox: String, _ name: String, _ bytes: [UInt8], mode: String = "rename") async throws {
        let script = """
            import os, sys
            d, n, source, mode = sys.argv[1:5]
            with open(source, "rb") as f: data = f.read()
            p = os.path.join(d, n)
            if mode == "rename":
                t = os.path.join(d, "." + n + ".part")
                with open(t, "wb") as f: f.write(data)
                os.rename(t, p)
            elif mode == "direct":
                with open(p, "wb") as f: f.write(data)
            elif mode == "symlink":
                os.symlink("/etc/passwd", p)
            elif mode == "fifo":
                os.mkfifo(p)
            elif mode == "hardlink":
                other = os.path.join(d, "rejected", ".keep-" + n)
                with open(other, "wb") as f: f.write(data)
                os.link(other, p)
            """
        // The bytes travel in a file: an argument may not pass 128 KiB.
        let payload = (inbox as NSString).deletingLastPathComponent + "/../../payload-\(UInt32.random(in: 0..<UInt32.max))"
        try Data(bytes).write(to: URL(fileURLWithPath: payload))
        chmod(payload, 0o644)
        defer { unlink(payload) }
        let result = try await EndToEndTests.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
                                                                "/usr/bin/python3", "-c", script, inbox, name, payload, mode])
        guard result.status == 0 else { throw TestFailure("the app (uid \(uid)) could not write \(name) into its inbox: \(result.stderr)") }
    }

    func apps(_ daemon: RunningDaemon) async throws -> [AppInfo] {
        try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
    }

    /// The next `import` events until one per name has come.
    func imports(_ reader: EventReader, names: Set<String>) async throws -> [String: ImportEvent] {
        var out: [String: ImportEvent] = [:]
        while !names.isSubset(of: Set(out.keys)) {
            let event = try await reader.next()
            guard event.head.event == "import" else { continue }
            let decoded = try event.decode(ImportEvent.self)
            out[decoded.name] = decoded
        }
        return out
    }

    @Test("files an app writes into its inbox are checked, copied into Imported/<app>, and given to it as its selection; what is refused is set aside with the reason")
    func importing() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)  // like /home: others pass through to what they are given
            try lib.write("Trips/a.jpg")
            let config = lib.root + "/photolibd.toml"
            try "[inbox]\nmax_file_bytes = 100000\ndaily_files = 7\n".write(toFile: config, atomically: true, encoding: .utf8)
            try lib.owner!.own(config)
        }
        await daemon.stop()
        try await daemon.start(extraArguments: ["--config", daemon.library.root + "/photolibd.toml"])
        try await daemon.ok("app", "add", Self.camera.app, "--uid", String(Self.camera.uid), "--location", "precise")
        try await daemon.ok("app", "add", Self.scanner.app, "--uid", String(Self.scanner.uid), "--location", "precise")
        try await daemon.ok("authorize", Self.camera.app, "limited")
        try await daemon.ok("authorize", Self.scanner.app, "authorized", "--access", "add-only")
        let listed = try await apps(daemon)
        let cameraInbox = try #require(listed.first { $0.app == Self.camera.app }?.inbox)
        let scannerInbox = try #require(listed.first { $0.app == Self.scanner.app }?.inbox)
        #expect(cameraInbox != scannerInbox && !cameraInbox.contains(Self.camera.app), "an inbox is named like its view, not by the app ID")
        let reader = try EventReader(daemon, app: nil)

        // Three good files, each as the app's own uid.
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "IMG_0001.jpg", Self.jpeg)
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "IMG_0002.heic", Self.heic, mode: "direct")
        try await appWrites(Self.scanner.uid, inbox: scannerInbox, "scan.mp4", Self.mp4)
        var events = try await imports(reader, names: ["IMG_0001.jpg", "IMG_0002.heic", "scan.mp4"])
        #expect(events["IMG_0001.jpg"]?.state == "added" && events["IMG_0001.jpg"]?.asset != nil)
        #expect(events["IMG_0002.heic"]?.state == "added" && events["IMG_0002.heic"]?.asset?.mediaType == "image")
        let scanned = try #require(events["scan.mp4"])
        #expect(scanned.state == "accepted" && scanned.asset == nil && scanned.assetID == nil, "an add-only app learns only that it was taken")

        // In the library, the owner's, with the library's mode, byte for byte; gone from the inbox.
        let imported = daemon.library.path("Imported/\(Self.camera.app)/IMG_0001.jpg")
        var st = stat()
        #expect(stat(imported, &st) == 0 && st.st_uid == daemon.library.owner!.uid && st.st_mode & 0o022 == 0)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: imported))) == Self.jpeg)
        #expect(FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(Self.scanner.app)/scan.mp4")))
        #expect(!FileManager.default.fileExists(atPath: cameraInbox + "/IMG_0001.jpg"))
        #expect(!FileManager.default.fileExists(atPath: scannerInbox + "/scan.mp4"))

        // The limited app sees what it added, in its view and its selection; the add-only app sees nothing.
        let cameraID = try #require(events["IMG_0001.jpg"]?.asset?.id)
        try await waitUntil("the camera's imports are in its view") { await daemon.viewEntries(Self.camera.app).count == 2 }
        #expect(await daemon.viewEntries(Self.camera.app).contains { $0.contains(cameraID) })
        // The selection is the owner's view of it, by library ID: the same asset.
        let libraryID = try #require(try await daemon.assets()["Imported/\(Self.camera.app)/IMG_0001.jpg"])
        #expect(try await daemon.appIDs(Self.camera.app)["Imported/\(Self.camera.app)/IMG_0001.jpg"] == cameraID)
        #expect(try await daemon.ok("selection", Self.camera.app).contains(libraryID))
        #expect(await daemon.viewEntries(Self.scanner.app).isEmpty)

        // Never overwriting: the same name again becomes "IMG_0001 (2).jpg".
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "IMG_0001.jpg", Self.jpeg)
        events = try await imports(reader, names: ["IMG_0001.jpg"])
        #expect(events["IMG_0001.jpg"]?.state == "added" && events["IMG_0001.jpg"]?.asset?.id != cameraID)
        #expect(FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(Self.camera.app)/IMG_0001 (2).jpg")))

        // Refusals, each with its reason, each file set aside in rejected/.
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "link.jpg", [], mode: "symlink")
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "pipe.jpg", [], mode: "fifo")
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "notes.jpg", Array("just some text, not a photo".utf8))
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "huge.jpg", Self.jpeg + Array(repeating: 0, count: 150_000))
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "linked.jpg", Self.jpeg, mode: "hardlink")
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "video.jpg", Self.mp4)
        events = try await imports(reader, names: ["link.jpg", "pipe.jpg", "notes.jpg", "huge.jpg", "linked.jpg", "video.jpg"])
        #expect(events["link.jpg"]?.code == "symlink")
        #expect(events["pipe.jpg"]?.code == "notRegularFile")
        #expect(events["notes.jpg"]?.code == "contentMismatch")
        #expect(events["notes.jpg"]?.reason?.contains("not a known image or video format") == true)
        #expect(events["huge.jpg"]?.code == "tooLarge")
        #expect(events["linked.jpg"]?.code == "hardLinked")
        #expect(events["video.jpg"]?.code == "contentMismatch" && events["video.jpg"]?.reason?.contains("isoVideo") == true)
        for (name, event) in events {
            #expect(event.state == "rejected" && event.rejected == "rejected/\(name)")
            var lst = stat()
            #expect(lstat(cameraInbox + "/rejected/" + name, &lst) == 0, "\(name) is kept in rejected/")
        }
        #expect(!FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(Self.camera.app)/notes.jpg")))

        // The quota: 7 files a day; the camera added 3, the scanner's count is its own.
        for index in 0..<4 { try await appWrites(Self.camera.uid, inbox: cameraInbox, "more\(index).jpg", Self.jpeg) }
        events = try await imports(reader, names: ["more0.jpg", "more1.jpg", "more2.jpg", "more3.jpg"])
        #expect(events.values.filter { $0.state == "added" }.count == 4)
        try await appWrites(Self.camera.uid, inbox: cameraInbox, "over.jpg", Self.jpeg)
        events = try await imports(reader, names: ["over.jpg"])
        #expect(events["over.jpg"]?.code == "dailyFileQuota")

        // An app that may not add: refused with what to do.
        try await daemon.ok("authorize", Self.scanner.app, "denied", "--access", "add-only")
        try await appWrites(Self.scanner.uid, inbox: scannerInbox, "late.jpg", Self.jpeg)
        events = try await imports(reader, names: ["late.jpg"])
        #expect(events["late.jpg"]?.code == "notAllowed" && events["late.jpg"]?.reason?.contains("requestAuthorization") == true)
    }

    @Test("a file left in an inbox while the daemon was stopped is taken at start, once")
    func takenAtStart() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)
            try lib.write("a.jpg")
        }
        try await daemon.ok("app", "add", Self.camera.app, "--uid", String(Self.camera.uid), "--location", "precise")
        try await daemon.ok("authorize", Self.camera.app, "limited")
        let inbox = try #require(try await apps(daemon).first?.inbox)
        await daemon.stop()
        try await appWrites(Self.camera.uid, inbox: inbox, "offline.jpg", Self.jpeg)
        try await daemon.start()
        try await waitUntil("the file left while stopped is imported") {
            FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(Self.camera.app)/offline.jpg"))
                && !FileManager.default.fileExists(atPath: inbox + "/offline.jpg")
        }
        try await waitUntil("it is in the camera's view") { await daemon.viewEntries(Self.camera.app).count == 1 }
        // Resuming from the start hears the import too: it is in the app's history.
        let resumed = try EventReader(daemon, app: Self.camera.app, since: 0)
        var sawImport = false
        while !sawImport {
            let event = try await resumed.next()
            if event.head.event == "import" { sawImport = try event.decode(ImportEvent.self).name == "offline.jpg" }
        }
        await daemon.stop()
        try await daemon.start()
        #expect(daemon.library.files(below: daemon.library.path("Imported")).count == 1, "a restart imports nothing twice")
    }

    @Test("while a large file is copied in from an inbox, the daemon goes on answering: edits of another app complete during the copy")
    func copyOffTheEngine() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)
            try lib.write("a.jpg")
        }
        let probe = "org.example.Probe"
        try await daemon.ok("app", "add", Self.camera.app, "--uid", String(Self.camera.uid), "--location", "precise")
        try await daemon.ok("authorize", Self.camera.app, "limited")
        try await daemon.ok("app", "add", probe, "--uid", "4299")
        let inbox = try #require(try await apps(daemon).first { $0.app == Self.camera.app }?.inbox)
        // 1.5 GiB (a long video's size), written as the app: a hole after an MP4 header, which the copy writes out
        // in full and syncs: a second or more, against milliseconds for an edit.
        let script = """
            import os, sys
            d = sys.argv[1]
            t = os.path.join(d, ".big.mp4.part")
            with open(t, "wb") as f:
                f.write(bytes([0, 0, 0, 0x20]) + b"ftypisom" + bytes([0, 0, 2, 0]) + b"isomiso2avc1mp41")
                f.truncate(1536 << 20)
            os.rename(t, os.path.join(d, "big.mp4"))
            """
        let written = try await run("/usr/bin/setpriv", ["--reuid=\(Self.camera.uid)", "--regid=\(Self.camera.uid)", "--clear-groups",
                                                   "/usr/bin/python3", "-c", script, inbox])
        #expect(written.status == 0, "\(written.stderr)")
        let album = daemon.library.path("Imported/\(Self.camera.app)")
        func copying() -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: album)) ?? []).contains { $0.hasPrefix(".photolibd-import-") }
        }
        func imported() -> Bool { FileManager.default.fileExists(atPath: album + "/big.mp4") }
        try await waitUntil("the copy to start", timeout: 60) { copying() || imported() }
        // Edits that go through the engine, one after another on one connection (no process to start
        // each time: an edit takes milliseconds), for as long as the copy lasts.
        let connection = try PhotoLibConnection(socketPath: daemon.library.socket, receiveTimeout: 120)
        var answeredWhileCopying = 0
        var edits = 0
        while !imported() {
            _ = try connection.call(.authorize, AuthorizeParams(app: probe, status: edits % 2 == 0 ? "limited" : "denied", access: nil),
                                    returning: AppInfo.self)
            edits += 1
            if copying() && !imported() { answeredWhileCopying += 1 }
        }
        print("import of 1.5 GiB: \(answeredWhileCopying) of \(edits) edits answered while the copy went on")
        #expect(answeredWhileCopying >= 3, "\(answeredWhileCopying) of \(edits) edits were answered while the copy went on")
        try await waitUntil("the inbox file to go") { !FileManager.default.fileExists(atPath: inbox + "/big.mp4") }
        var st = stat()
        #expect(stat(album + "/big.mp4", &st) == 0 && st.st_size == 1536 << 20)
    }
}
