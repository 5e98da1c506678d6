import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import TestSupport
import Testing

/// The one-time pick (PHPickerViewController) and the examples apps start
/// from, with the daemon run by the library's owner: an app with a uid of its
/// own, an app sandboxed in bubblewrap on the owner's uid, and the Swift client.
@Suite("Picking photos once", .serialized)
struct PickTests {
    static let printer = (app: "org.example.Printer", uid: 4261)
    static let editor = "org.example.Editor"

    /// Runs `command` (already wrapped for its uid or sandbox) and answers the
    /// pick it makes with `answer` as soon as `photolibctl requests` shows it;
    /// returns the JSON lines the example printed.
    func runAnswering(_ daemon: RunningDaemon, _ command: [String], answer: [String]?) async throws -> (status: Int32, lines: [[String: Any]], output: String, request: RequestInfo?) {
        let output = daemon.library.root + "/example-\(UInt32.random(in: 0..<UInt32.max)).out"
        let process = try SpawnedProcess(command[0], Array(command.dropFirst()), output: output)
        var seen: RequestInfo?
        if let answer {
            try await waitUntil("the pick to be pending", timeout: 30, while: process) {
                seen = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first
                return seen != nil
            }
            if let seen { _ = try await daemon.ctlOK(["answer", String(seen.request)] + answer) }
        }
        let status = await process.exited(timeout: 30) ?? -1
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let lines = printed.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        return (status, lines, printed, seen)
    }

    func step(_ lines: [[String: Any]], _ name: String) -> [String: Any]? {
        lines.first { $0["step"] as? String == name }
    }

    func sha256(_ path: String) async throws -> String {
        let result = try await EndToEndTests.run("/usr/bin/sha256sum", [path])
        return String(result.stdout.prefix(64))
    }

    /// The sandbox a person makes with `photolibctl app sandbox APP --bwrap`, around Python and the examples.
    func sandboxed(_ daemon: RunningDaemon, _ app: String, examples: String, _ script: String, _ arguments: [String]) async throws -> [String] {
        let owner = try #require(daemon.library.owner)
        let binds = try await daemon.ok("app", "sandbox", app, "--bwrap").trimmingCharacters(in: .whitespacesAndNewlines)
        let shell = "exec bwrap --unshare-all --die-with-parent --ro-bind /usr /usr --symlink usr/lib /lib"
            + " --symlink usr/lib64 /lib64 --symlink usr/bin /bin --proc /proc --dev /dev --tmpfs /tmp \(binds)"
            + " --ro-bind \(examples) /app /usr/bin/python3 /app/\(script) \(arguments.map(SandboxArguments.shellQuoted).joined(separator: " "))"
        return owner.command("/bin/sh") + ["-c", shell]
    }

    @Test("an app with a uid of its own picks 3 assets: 3 read-only descriptors in the person's order, no view entry, no grant; a cancelled pick delivers nothing")
    func pickByAnAppWithItsOwnUID() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)  // like /home: the app passes through to the socket, and sees no file
            try lib.write("Trips/a.jpg", contents: "photo a, the first")
            try lib.write("Trips/b.jpg", contents: "photo b")
            try lib.write("Trips/c.mp4", contents: "a video c")
            try lib.write("Trips/IMG_7.HEIC", contents: "live still")
            try lib.write("Trips/IMG_7.MOV", contents: "live motion")
        }
        let examples = try ReachableCopies.examples()
        try await daemon.ok("app", "add", Self.printer.app, "--uid", String(Self.printer.uid), "--location", "precise")
        let ids = try await daemon.assets()
        let a = try #require(ids["Trips/a.jpg"]), b = try #require(ids["Trips/b.jpg"]), c = try #require(ids["Trips/c.mp4"])
        let asApp = ["/usr/bin/setpriv", "--reuid=\(Self.printer.uid)", "--regid=\(Self.printer.uid)", "--clear-groups",
                     "/usr/bin/python3", examples + "/pick_photos.py", "--socket", daemon.library.socket]

        // The person chooses c, a, b: the app receives them in that order, byte for byte.
        let run = try await runAnswering(daemon, asApp + ["--limit", "3", "--ordered", "--try-reopen"], answer: [c, "Trips/a.jpg", b])
        #expect(run.status == 0, "\(run.output)")
        let pick = try #require(run.request?.pick)
        #expect(pick == PickInfo(types: ["image", "video", "live"], limit: 3, ordered: true))
        let picked = try #require(step(run.lines, "picked"), "\(run.output)")
        #expect(picked["state"] as? String == "picked")
        let assets = try #require(picked["assets"] as? [[String: Any]])
        let shown = try await daemon.appIDs(Self.printer.app)  // the app is told its own IDs; the report keeps the library's
        #expect(assets.compactMap { $0["id"] as? String } == ["Trips/c.mp4", "Trips/a.jpg", "Trips/b.jpg"].map { shown[$0]! })
        let files = assets.flatMap { ($0["files"] as? [[String: Any]]) ?? [] }
        #expect(files.count == 3)
        #expect(files.compactMap { $0["name"] as? String } == ["c.mp4", "a.jpg", "b.jpg"])
        for (file, path) in zip(files, ["Trips/c.mp4", "Trips/a.jpg", "Trips/b.jpg"]) {
            #expect(await file["sha256"] as? String == (try sha256(daemon.library.path(path))), "\(path) arrived unchanged")
            #expect(file["writable"] as? Bool == false, "the descriptor of \(path) is read-only")
            #expect(file["reopened"] as? Bool == false, "\(path) could not be opened again for writing through /proc")
            #expect(file["copy"] as? Bool == false, "an app with a uid of its own gets the original, which it cannot write")
        }
        #expect(picked["unclaimed"] as? Int == 0)

        // No view entry, no grant, no request left; the pick is in the log.
        #expect(await daemon.viewEntries(Self.printer.app).isEmpty)
        let app = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first { $0.app == Self.printer.app })
        #expect(app.readWrite == "notDetermined" && app.selectedAssets == 0 && app.selectedAlbums == 0)
        #expect(try await daemon.ok("requests").contains("No pending requests"))
        #expect(daemon.log.contains("3 assets handed to \(Self.printer.app) once"))
        let report = try await JSONDecoder().decode(ReportResult.self, from: Data(try daemon.ok("report", Self.printer.app, "--json").utf8))
        #expect(report.entries.filter { $0.how == "pick" }.map(\.asset) == [c, a, b], "the pick is in the access report, in order")

        // A Live Photo asked for as `live` is its two files; the person's mistakes are explained, and the pick waits on.
        let output = daemon.library.root + "/live.out"
        let process = try SpawnedProcess(asApp[0], Array(asApp.dropFirst()) + ["--types", "image,live", "--limit", "1"], output: output)
        var request: Int64?
        try await waitUntil("the second pick to be pending", timeout: 30, while: process) {
            request = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first?.request
            return request != nil
        }
        let id = String(try #require(request))
        let tooMany = try await daemon.ctl("answer", id, a, b)
        #expect(tooMany.status != 0 && tooMany.stderr.contains("at most 1"), "\(tooMany)")
        let video = try await daemon.ctl("answer", id, c)
        #expect(video.status != 0 && video.stderr.contains("asked only for image, live"), "\(video)")
        let albums = try await daemon.ctl("answer", id, "pick", "--album", "Trips")
        #expect(albums.status != 0, "\(albums)")
        try await daemon.ok("answer", id, "Trips/IMG_7.HEIC")
        #expect(await process.exited(timeout: 30) == 0)
        let live = try String(contentsOfFile: output, encoding: .utf8)
        #expect(live.contains("\"IMG_7.HEIC\"") && live.contains("\"IMG_7.MOV\"") && live.contains("\"mediaType\": \"live\""), "\(live)")

        // Cancelled: the reply says so, and nothing comes with it.
        let cancelled = try await runAnswering(daemon, asApp, answer: ["cancel"])
        let nothing = try #require(step(cancelled.lines, "picked"), "\(cancelled.output)")
        #expect(nothing["state"] as? String == "cancelled" && (nothing["assets"] as? [Any])?.isEmpty == true)
        #expect(nothing["unclaimed"] as? Int == 0, "no descriptor came with a cancelled pick")
        #expect(await daemon.viewEntries(Self.printer.app).isEmpty)
    }

    @Test("an admin that subscribes while a pick waits hears it pending with what it asks for (types, limit, order), as the live event said")
    func pendingPickIsReplayedWhole() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            chmod(lib.root, 0o711)
            try lib.write("Trips/a.jpg", contents: "photo a")
        }
        let examples = try ReachableCopies.examples()
        try await daemon.ok("app", "add", Self.printer.app, "--uid", String(Self.printer.uid), "--location", "precise")
        let app = try SpawnedProcess("/usr/bin/setpriv", ["--reuid=\(Self.printer.uid)", "--regid=\(Self.printer.uid)", "--clear-groups",
                                                          "/usr/bin/python3", examples + "/pick_photos.py", "--socket", daemon.library.socket,
                                                          "--limit", "2", "--ordered"],
                                     output: daemon.library.root + "/pick.out")
        var pending: RequestInfo?
        try await waitUntil("the pick to be pending", timeout: 30, while: app) {
            pending = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first
            return pending != nil
        }
        // A page opened now (an admin subscriber) must be able to draw the pick's sheet from the replay alone.
        let admin = try EventReader(daemon, app: nil)
        var replayed: RequestEvent?
        while replayed == nil {
            let event = try await admin.next()
            if event.head.event == "request" { replayed = try event.decode(RequestEvent.self) }
        }
        #expect(replayed?.state == "pending" && replayed?.request == pending?.request)
        #expect(replayed?.pick == PickInfo(types: ["image", "video", "live"], limit: 2, ordered: true), "\(String(describing: replayed))")
        _ = try await daemon.ctlOK(["answer", String(try #require(pending).request), "cancel"])
        #expect(await app.exited(timeout: 30) != nil)
    }

    @Test("a sandboxed app on the owner's uid picks through its endpoint and gets private copies: the originals cannot be changed through them")
    func sandboxedPickGetsCopies() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg", contents: "the original photo a")
            try lib.write("b.heic", contents: "the original photo b")
        }
        let examples = try ReachableCopies.examples()
        let owner = try #require(daemon.library.owner)
        try await daemon.ok("app", "add", Self.editor, "--uid", String(owner.uid), "--location", "precise")
        try await daemon.ok("authorize", Self.editor, "limited")
        let before = await (try sha256(daemon.library.path("a.jpg")), try sha256(daemon.library.path("b.heic")))
        let command = try await sandboxed(daemon, Self.editor, examples: examples, "pick_photos.py", ["--limit", "0", "--try-reopen"])
        let run = try await runAnswering(daemon, command, answer: ["b.heic", "a.jpg"])
        #expect(run.status == 0, "\(run.output)")
        let picked = try #require(step(run.lines, "picked"), "\(run.output)")
        let files = ((picked["assets"] as? [[String: Any]]) ?? []).flatMap { ($0["files"] as? [[String: Any]]) ?? [] }
        #expect(files.compactMap { $0["name"] as? String } == ["b.heic", "a.jpg"])
        #expect(files.compactMap { $0["sha256"] as? String } == [before.1, before.0], "the copies hold the originals' bytes")
        #expect(files.allSatisfy { $0["copy"] as? Bool == true && $0["writable"] as? Bool == false }, "\(files)")
        #expect(await (try sha256(daemon.library.path("a.jpg")), try sha256(daemon.library.path("b.heic"))) == before, "no original changed")
        #expect(await daemon.viewEntries(Self.editor).isEmpty, "a pick adds nothing to a limited app's view")
        let app = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first { $0.app == Self.editor })
        #expect(app.selectedAssets == 0, "and grants nothing")
    }

    @Test("the add-photo example, sandboxed, drops a photo into its inbox and hears it was added")
    func sandboxedAppAddsAPhoto() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in try lib.write("a.jpg") }
        let examples = try ReachableCopies.examples()
        let owner = try #require(daemon.library.owner)
        try await daemon.ok("app", "add", Self.editor, "--uid", String(owner.uid), "--location", "precise")
        try await daemon.ok("authorize", Self.editor, "limited")
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0] + Array(repeating: 9, count: 400)
        try Data(jpeg).write(to: URL(fileURLWithPath: examples + "/beach.jpg"))
        chmod(examples + "/beach.jpg", 0o644)
        let command = try await sandboxed(daemon, Self.editor, examples: examples, "add_photo.py", ["/app/beach.jpg"])
        let run = try await runAnswering(daemon, command, answer: nil)
        #expect(run.status == 0, "\(run.output)")
        let event = try #require(step(run.lines, "import")?["event"] as? [String: Any], "\(run.output)")
        #expect(event["state"] as? String == "added", "\(event)")
        let id = try #require((event["asset"] as? [String: Any])?["id"] as? String)
        try await waitUntil("the photo to be in the app's view") { await daemon.viewEntries(Self.editor).contains { $0.contains(id) } }
        #expect(FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(Self.editor)/beach.jpg")))
    }

    @Test("PhotoLibClient's pick returns the chosen files as FileHandles, in order")
    func swiftClientPick() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("one.jpg", contents: "first")
            try lib.write("two.jpg", contents: "second")
        }
        try await daemon.ok("app", "add", Self.editor, "--uid", String(try #require(daemon.library.owner).uid), "--location", "precise")
        let endpoint = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first?.endpoint)
        let picking = onThread { () throws -> (PickResult, [[UInt8]]) in
            let connection = try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60)
            let picked = try connection.pick(types: [.image], limit: 2, ordered: true)
            return (picked.result, try picked.handles.map { Array(try $0.readToEnd() ?? Data()) })
        }
        var request: Int64?
        try await waitUntil("the pick to be pending", timeout: 30) {
            request = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first?.request
            return request != nil
        }
        try await daemon.ok("answer", String(try #require(request)), "two.jpg", "one.jpg")
        let (result, contents) = try await picking.value
        #expect(result.assets.map { $0.files[0].name } == ["two.jpg", "one.jpg"])
        #expect(contents == [Array("second".utf8), Array("first".utf8)])
    }

    @Test("a pick of more files than one message carries (130 Live Photos, 260 descriptors) arrives whole and in order")
    func pickBeyondOneMessage() async throws {
        let pairs = 130
        let daemon = try await RunningDaemon.startedByOwner { lib in
            for n in 0..<pairs {
                try lib.write(String(format: "Burst/L%03d.HEIC", n), contents: "still \(n)")
                try lib.write(String(format: "Burst/L%03d.MOV", n), contents: "motion \(n)")
            }
        }
        try await daemon.ok("app", "add", Self.editor, "--uid", String(try #require(daemon.library.owner).uid), "--location", "precise")
        let endpoint = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first?.endpoint)
        let picking = onThread { () throws -> [String] in
            let connection = try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60)
            let picked = try connection.pick(types: [.live], limit: 0)
            return try picked.handles.map { String(decoding: try $0.readToEnd() ?? Data(), as: UTF8.self) }
        }
        var request: Int64?
        try await waitUntil("the pick to be pending", timeout: 30) {
            request = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first?.request
            return request != nil
        }
        let chosen = (0..<pairs).reversed().map { String(format: "Burst/L%03d.HEIC", $0) }
        _ = try await daemon.ctlOK(["answer", String(try #require(request))] + chosen)
        let contents = try await picking.value
        #expect(contents == (0..<pairs).reversed().flatMap { ["still \($0)", "motion \($0)"] })
    }
}
