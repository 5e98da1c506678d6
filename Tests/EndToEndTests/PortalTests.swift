import Foundation
import Glibc
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// The file-chooser portal backend (`photolibd-portal`) on a private desktop session:
/// Debian's xdg-desktop-portal and xdg-document-portal, started by the bus, ask it;
/// the person answers on the page in headless Chromium.
@Suite("Photos for unmodified apps through the file-chooser portal", .serialized)
struct PortalTests {
    static let app = "org.example.Photos"

    /// A library of three photos, one of them with a location, and a running daemon.
    /// With `heic`, a HEIC from a phone too (heif-enc of a photo), which an app reading only JPEG and PNG cannot open.
    static func library(heic: Bool = false) async throws -> RunningDaemon {
        try await PageTests.startedWithPhotos(["Trip/beach.jpg", "Trip/plain.jpg", "Home/cat.jpg"]) { lib in
            let tagged = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original_in_place", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N",
                                                       "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", lib.path("Trip/beach.jpg")])
            guard tagged.status == 0 else { throw TestFailure("exiftool failed: \(tagged.stderr)") }
            if heic {
                let made = lib.root + "/made.heic"
                let encoded = try await run("/usr/bin/heif-enc", ["-q", "60", lib.path("Trip/beach.jpg"), "-o", made])
                guard encoded.status == 0 else { throw TestFailure("heif-enc failed: \(encoded.stderr)") }
                try lib.copy(made, to: "Trip/IMG_1.HEIC")
                unlink(made)
            }
        }
    }

    static func json(_ printed: String, session: PortalDesktop? = nil) throws -> [String: Any] {
        let lines = printed.split(separator: "\n").reversed()
        guard let object = lines.lazy.compactMap({ (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }).first else {
            throw TestFailure("the client printed no JSON: \(printed)" + (session.map { "; the session: \($0.log)" } ?? ""))
        }
        return object
    }

    static func hasLocation(_ path: String) async throws -> Bool {
        await !(try run("/usr/bin/exiftool", ["-s3", "-GPSLatitude", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("a sandboxed app's OpenFile for JPEG and PNG is answered on the page: it gets document-portal paths holding the photos chosen, without location, a HEIC among them as a JPEG; after the set time they hold nothing and the export is gone")
    func sandboxedAppPicksThroughThePortal() async throws {
        let daemon = try await Self.library(heic: true)
        let owner = try #require(daemon.library.owner)
        let desktop = try await PortalDesktop.start(for: daemon.library, owner: owner, keepPicks: 25)
        defer { desktop.stop() }
        let out = daemon.library.root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try owner.own(out)

        let client = try await desktop.sandboxed(app: Self.app, ["open", "--filter", "Photos", "mime:image/jpeg", "glob:*.[pP][nN][gG]", "--multiple",
                                                           "--copy-to", "/out"], out: out, output: daemon.library.root + "/client.out")
        do {
            try await waitUntil("the backend to open the pick's sheet in the browser", while: client) { !desktop.openedPages().isEmpty }
        } catch {
            throw TestFailure("\(error); the session: \(desktop.log); the daemon: \(daemon.log)")
        }
        let signIn = try #require(desktop.openedPages().first)
        let page = try await PageSession(daemon)
        let sheet: [String: Any]
        do {
            sheet = try await page.drive(["sheet", "file://" + signIn, "pick", "beach.jpg", "plain.jpg", "IMG_1.HEIC", "--shots", daemon.library.root + "/shots"])
        } catch {
            // Who ended the pick, if anyone did: the page server's log (a closed page), the portal's, the daemon's.
            let pageLog = (try? String(contentsOfFile: daemon.library.root + "/photolibd-page/page.log", encoding: .utf8)) ?? "(none)"
            throw TestFailure("\(error); the page server: \(pageLog.suffix(3000)); the session: \(desktop.log.suffix(3000)); the daemon: \(daemon.log.suffix(3000))")
        }
        #expect(sheet["title"] as? String == "“\(Self.app)” asks you to pick photos", "\(sheet)")
        #expect(sheet["note"] as? String == "\(Self.app) gets the photos you add, once, without where they were taken; nothing else is shared.",
                "\(sheet)")
        #expect(await client.exited(timeout: 60) == 0, "\(client.ending): \(client.printed); the session: \(desktop.log)")
        let answer = try Self.json(client.printed)
        #expect(answer["response"] as? Int == 0, "\(answer)")
        let files = try #require(answer["files"] as? [[String: Any]])
        #expect(files.count == 3, "\(answer)")
        // Paths in the app's own view of the Documents portal, never in the library or the backend's shelf.
        for file in files {
            let path = try #require(file["path"] as? String)
            #expect(path.hasPrefix(desktop.runtime + "/doc/"), "\(path)")
        }
        let copied = files.compactMap { $0["copied"] as? String }.map { out + "/" + ($0 as NSString).lastPathComponent }
        #expect(copied.map { ($0 as NSString).lastPathComponent }.sorted() == ["IMG_1.jpg", "beach.jpg", "plain.jpg"], "\(answer)")
        // The filter names JPEG and PNG: the HEIC arrives as a JPEG made from it, which decodes, still without location.
        let converted = try #require(copied.first { $0.hasSuffix("IMG_1.jpg") })
        #expect(FileManager.default.contents(atPath: converted)?.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "a JPEG")
        #expect(try await run("/usr/bin/vipsheader", [converted]).stdout.contains("jpegload"), "that decodes")
        #expect(try await !Self.hasLocation(converted), "made from the photo without its location")
        let plain = try #require(copied.first { $0.hasSuffix("plain.jpg") })
        let beach = try #require(copied.first { $0.hasSuffix("beach.jpg") })
        #expect(FileManager.default.contents(atPath: plain) == FileManager.default.contents(atPath: daemon.library.path("Trip/plain.jpg")),
                "a photo without location arrives byte for byte")
        #expect(try await Self.hasLocation(daemon.library.path("Trip/beach.jpg")), "the original keeps its location")
        #expect(try await !Self.hasLocation(beach), "an app the person did not allow location gets the photo without it")
        #expect(try await run("/usr/bin/vipsheader", [beach]).status == 0, "and it is still a photo")
        // The app was added to photolibd by its Flatpak ID, and the pick is in the access report; nothing was granted.
        let apps = try await daemon.ok("apps")
        #expect(apps.contains(Self.app), "\(apps)")
        #expect(try await daemon.ok("report", Self.app).contains("picked"))
        #expect(await daemon.viewEntries(Self.app).isEmpty, "a pick grants nothing")
        #expect(try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.isEmpty,
                "no pick is left pending")
        #expect(try await desktop.documents(of: Self.app).contains("beach.jpg"), "the Documents portal exports the copies for now")
        #expect(desktop.log.contains("3 of them the daemon's private copies named in place, 0 copied"),
                "on one filesystem no byte is copied twice: \(desktop.log)")

        // After the set time: the copies are gone, and so is the Documents portal's lasting export of them.
        try await waitUntil("the pick's copies to expire", timeout: 90) {
            ((try? FileManager.default.contentsOfDirectory(atPath: desktop.picks)) ?? ["?"]).isEmpty
        }
        let paths = files.compactMap { $0["path"] as? String }
        let reader = try await desktop.sandboxed(app: Self.app, ["read"] + paths, out: out, output: daemon.library.root + "/reader.out")
        #expect(await reader.exited(timeout: 60) == 0, "\(reader.printed)")
        let read = try #require(try Self.json(reader.printed)["files"] as? [[String: Any]])
        #expect(read.count == 3 && read.allSatisfy { $0["error"] != nil && $0["size"] == nil }, "the app's documents hold nothing now: \(read)")
        let exported = try await desktop.documents(of: Self.app)
        #expect(!exported.contains("beach.jpg"), "the export is gone: \(exported)")
        #expect(desktop.log.contains("no longer exports"), "\(desktop.log)")
    }

    @Test("cancel, the app closing its dialog, a sheet nobody answers and a daemon that is not running each give the app the portal's response code, with a log line, and leave no pick pending")
    func endings() async throws {
        let daemon = try await Self.library()
        let owner = try #require(daemon.library.owner)
        // Long enough for a loaded machine to see each pick pending before it times out; the third waits it out.
        let desktop = try await PortalDesktop.start(for: daemon.library, owner: owner, sheetTimeout: 15)
        defer { desktop.stop() }
        let out = daemon.library.root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try owner.own(out)
        func ask(_ name: String, _ extra: [String] = []) async throws -> SpawnedProcess {
            try await desktop.sandboxed(app: Self.app, ["open", "--filter", "Photos", "mime:image/*"] + extra, out: out,
                                  output: daemon.library.root + "/\(name).out")
        }
        func pending() async throws -> [RequestInfo] {
            try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests
        }
        /// Waits for the daemon to hold `client`'s pick; a client that ended first is reported with the session's log,
        /// where the portals' own words are.
        func askedBy(_ client: SpawnedProcess) async throws {
            do {
                try await waitUntil("the pick to be asked", while: client) { try await !pending().isEmpty }
            } catch {
                throw TestFailure("\(error); the session: \(desktop.log.suffix(6000))")
            }
        }

        // Copies left by a backend that stopped (a logout) are removed when it next starts; what it never made is left alone.
        let leftover = desktop.picks + "/1000000000-0abc"
        try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: true)
        try "old".write(toFile: leftover + "/old.jpg", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: desktop.picks + "/not-a-pick", withIntermediateDirectories: true)
        _ = try await run("/bin/chown", ["-R", "\(owner.uid):\(owner.gid)", desktop.picks])
        chmod(desktop.picks, 0o700)

        // The person cancels the sheet: 1.
        let cancelled = try await ask("cancelled")
        try await askedBy(cancelled)
        let request = try #require(try await pending().first)
        #expect(request.kind == "pick" && request.app == Self.app, "\(request)")
        try await daemon.ok("answer", String(request.request), "cancel")
        #expect(await cancelled.exited(timeout: 60) == 0, "\(cancelled.ending); the session: \(desktop.log.suffix(6000))")
        #expect(try Self.json(cancelled.printed)["response"] as? Int == 1, "\(cancelled.printed)")
        #expect(!FileManager.default.fileExists(atPath: leftover), "an expired pick left from before is removed at start: \(desktop.log)")
        #expect(FileManager.default.fileExists(atPath: desktop.picks + "/not-a-pick"))

        // The app closes its own dialog (Request.Close): 2, and the pick is withdrawn.
        let closing = try await ask("closing", ["--close-when", "/out/close"])
        try await askedBy(closing)
        try Data().write(to: URL(fileURLWithPath: out + "/close"))
        #expect(await closing.exited(timeout: 60) == 0, "\(closing.printed); the session: \(desktop.log)")
        #expect(try Self.json(closing.printed)["closed"] as? Bool == true, "\(closing.printed)")
        try await waitUntil("the closed dialog's pick to be withdrawn") { try await pending().isEmpty }
        #expect(desktop.log.contains("the app closed the dialog"), "\(desktop.log)")

        // Nobody answers within the sheet's time (15 s here): 2.
        let unanswered = try await ask("unanswered")
        #expect(await unanswered.exited(timeout: 60) == 0, "\(unanswered.ending); the session: \(desktop.log.suffix(6000))")
        #expect(try Self.json(unanswered.printed)["response"] as? Int == 2, "\(unanswered.printed)")
        try await waitUntil("the timed-out pick to be withdrawn") { try await pending().isEmpty }
        #expect(desktop.log.contains("nobody answered within 15 s"), "\(desktop.log)")

        // An app that reaches the bus itself cannot call photolibd's backend in another app's name: only the portal may.
        let impostor = try await desktop.sandboxed(app: Self.app, ["impersonate", "org.example.Bank"], out: out,
                                             output: daemon.library.root + "/impostor.out")
        #expect(await impostor.exited(timeout: 60) == 0, "\(impostor.printed)")
        #expect(try Self.json(impostor.printed)["error"] as? String == "org.freedesktop.DBus.Error.AccessDenied", "\(impostor.printed)")
        let (waiting, apps) = (try await pending(), try await daemon.ok("apps"))
        #expect(waiting.isEmpty && !apps.contains("org.example.Bank"))
        #expect(desktop.log.contains("only xdg-desktop-portal"), "\(desktop.log)")

        // photolibd is not running: 2 at once, and the log says how to start it.
        await daemon.stop()
        let noDaemon = try await ask("nodaemon")
        #expect(await noDaemon.exited(timeout: 60) == 0, "\(noDaemon.ending); the session: \(desktop.log.suffix(6000))")
        #expect(try Self.json(noDaemon.printed)["response"] as? Int == 2, "\(noDaemon.printed)")
        #expect(desktop.log.contains("photolibd is not running"), "\(desktop.log)")
    }

    @Test("the person closes the page showing the pick's sheet: the app's dialog ends with response 2 a few seconds later, and no pick is left")
    func closedPage() async throws {
        let daemon = try await Self.library()
        let owner = try #require(daemon.library.owner)
        let desktop = try await PortalDesktop.start(for: daemon.library, owner: owner)
        defer { desktop.stop() }
        let out = daemon.library.root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try owner.own(out)
        let client = try await desktop.sandboxed(app: Self.app, ["open", "--filter", "Photos", "mime:image/*"], out: out,
                                           output: daemon.library.root + "/client.out")
        try await waitUntil("the backend to open the pick's sheet in the browser", while: client) { !desktop.openedPages().isEmpty }
        let page = try await PageSession(daemon)
        let shown = try await page.drive(["sheet", "file://" + (try #require(desktop.openedPages().first)), "leave",
                                          "--shots", daemon.library.root + "/shots"])
        #expect(shown["kind"] as? String == "pick", "\(shown)")
        #expect(await client.exited(timeout: 60) == 0, "\(client.printed); the session: \(desktop.log)")
        #expect(try Self.json(client.printed)["response"] as? Int == 2, "\(client.printed)")
        #expect(desktop.log.contains("the page showing the sheet was closed"), "\(desktop.log)")
        #expect(try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.isEmpty)
    }

    @Test("a document OpenFile and a SaveFile go to the backend chosen before photolibd and come back unchanged")
    func otherDialogsAreForwarded() async throws {
        let daemon = try await Self.library()
        let owner = try #require(daemon.library.owner)
        let name = "org.freedesktop.impl.portal.desktop.recorder"
        let desktop = try await PortalDesktop.start(for: daemon.library, owner: owner, forwardTo: name, withGtk: false)
        defer { desktop.stop() }
        let record = daemon.library.root + "/forwarded.jsonl"
        let recorder = try desktop.spawn("/usr/bin/python3", [try ReachableCopies.browserTool("recording_backend.py"), name, record],
                                         output: daemon.library.root + "/recorder.out")
        try await waitUntil("the stand-in backend to own its name", while: recorder) { recorder.printed.contains("ready") }

        let document = try desktop.onHost(["open", "--filter", "PDF", "glob:*.pdf", "mime:application/pdf"], output: daemon.library.root + "/doc.out")
        #expect(await document.exited(timeout: 60) == 0, "\(document.printed); the session: \(desktop.log)")
        let save = try desktop.onHost(["save", "--name", "report.pdf"], output: daemon.library.root + "/save.out")
        #expect(await save.exited(timeout: 60) == 0, "\(save.printed); the session: \(desktop.log)")

        let calls = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(calls.map { $0["method"] as? String } == ["OpenFile", "SaveFile"], "\(calls)")
        let open = try #require(calls.first)
        #expect(open["title"] as? String == "Choose a photo", "\(open)")
        let filters = "\((open["options"] as? [String: Any])?["filters"] ?? "none")"
        #expect(filters.contains("*.pdf") && filters.contains("application/pdf"), "the filters arrive as the app sent them: \(filters)")
        #expect("\((calls.last?["options"] as? [String: Any])?["current_name"] ?? "")" == "report.pdf", "\(calls)")
        // What the stand-in answered is what the app got.
        let opened = try Self.json(document.printed)
        #expect(opened["response"] as? Int == 0 && opened["uris"] as? [String] == ["file:///forwarded/OpenFile"], "\(opened)")
        let saved = try Self.json(save.printed)
        #expect(saved["response"] as? Int == 0 && saved["uris"] as? [String] == ["file:///forwarded/SaveFile"], "\(saved)")
        #expect((saved["results"] as? [String: Any])?["choices"] != nil, "every result key comes back: \(saved)")
        #expect(try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.isEmpty,
                "photolibd was never asked")
    }

    @Test("with xdg-desktop-portal-gtk itself behind it (under Xvfb), a SaveFile and a document OpenFile open GTK's dialogs, and what GTK answers is what the app gets")
    func gtkAnswersTheRest() async throws {
        let daemon = try await Self.library()
        let owner = try #require(daemon.library.owner)
        let (display, server) = try await PortalDesktop.startDisplay(library: daemon.library, owner: owner)
        defer { server.signal(SIGTERM) }
        let desktop = try await PortalDesktop.start(for: daemon.library, owner: owner, environment: ["DISPLAY": display])
        defer { desktop.stop() }
        // A session starts its portals at login, the GTK backend first. xdg-desktop-portal 1.16 asks GTK's for its
        // Lockdown settings once, when it starts, and a frontend that could not then reach it crashes on every SaveFile.
        try await desktop.started("org.freedesktop.impl.portal.desktop.gtk")
        try await desktop.started("org.freedesktop.portal.Desktop")
        let folder = daemon.library.root + "/documents"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try owner.own(folder)
        try "%PDF-1.4\n".write(toFile: folder + "/letter.pdf", atomically: true, encoding: .utf8)
        try owner.own(folder + "/letter.pdf")
        func xdotool(_ arguments: [String]) async throws -> String {
            let command = desktop.command("/usr/bin/xdotool", arguments, environment: ["DISPLAY": display])
            return try await run(command[0], Array(command.dropFirst())).stdout
        }
        // Keys to GTK's dialog, as a person types them (there is no window manager: focus is given directly).
        func key(_ window: String, _ keys: [String]) async throws {
            guard let id = try await xdotool(["search", "--name", window]).split(separator: "\n").first else { return }
            _ = try await xdotool(["windowfocus", "--sync", String(id)] + keys)
        }

        // Save: GTK's dialog opens on the folder the app named, with its name; Enter saves there.
        let save = try desktop.onHost(["save", "--name", "report.pdf", "--folder", folder], output: daemon.library.root + "/save.out")
        try await waitUntil("GTK's save dialog to be answered", while: save) {
            try await key("Save the report", ["key", "Return"])
            return !save.isRunning
        }
        let saved = try Self.json(save.printed, session: desktop)
        #expect(saved["response"] as? Int == 0 && saved["uris"] as? [String] == ["file://" + folder + "/report.pdf"], "\(saved); \(desktop.log)")
        #expect(desktop.log.contains("SaveFile for") && desktop.log.contains("goes to org.freedesktop.impl.portal.desktop.gtk unchanged"))

        // Open a document: typed into GTK's location field.
        let open = try desktop.onHost(["open", "--filter", "PDF", "glob:*.pdf"], output: daemon.library.root + "/open.out")
        try await waitUntil("GTK's open dialog to show", while: open) {
            try await !xdotool(["search", "--name", "Choose a photo"]).isEmpty
        }
        // Enter until the dialog takes it (the location field's completion may swallow the first). On a
        // loaded machine the completion can also rewrite what was typed: the path is typed again now and then.
        var tries = 0
        try await waitUntil("GTK's open dialog to be answered", timeout: 120, while: open) {
            if tries % 25 == 0 {
                try await key("Choose a photo", ["key", "ctrl+l", "key", "ctrl+a", "type", "--delay", "20", folder + "/letter.pdf"])
            }
            tries += 1
            try await key("Choose a photo", ["key", "Return"])
            return !open.isRunning
        }
        let opened = try Self.json(open.printed)
        #expect(opened["response"] as? Int == 0 && opened["uris"] as? [String] == ["file://" + folder + "/letter.pdf"], "\(opened); \(desktop.log)")
        #expect((opened["results"] as? [String: Any])?["current_filter"] != nil, "GTK's other results come back too: \(opened)")
        #expect(try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.isEmpty)
    }

    @Test("an unmodified GTK program (zenity --file-selection, GTK_USE_PORTAL=1, under Xvfb) gets a photo the person picks on the page")
    func zenityGetsAPhoto() async throws {
        let daemon = try await Self.library()
        let owner = try #require(daemon.library.owner)
        let desktop = try await PortalDesktop.start(for: daemon.library, owner: owner, withGtk: false)
        defer { desktop.stop() }
        let display = try await desktop.startDisplay()
        let zenity = try desktop.spawn("/usr/bin/zenity", ["--file-selection", "--title=Choose a photo", "--file-filter=Photos | *.jpg *.png"],
                                       environment: ["DISPLAY": display, "GTK_USE_PORTAL": "1"], output: daemon.library.root + "/zenity.out")
        do {
            try await waitUntil("the backend to open the pick's sheet in the browser", while: zenity) { !desktop.openedPages().isEmpty }
        } catch {
            throw TestFailure("\(error); zenity: \(zenity.printed); the session: \(desktop.log)")
        }
        let page = try await PageSession(daemon)
        let sheet = try await page.drive(["sheet", "file://" + (try #require(desktop.openedPages().first)), "pick", "plain.jpg"])
        #expect(sheet["title"] as? String == "“\(PortalApp.hostApp)” asks you to pick a photo", "\(sheet)")
        #expect(await zenity.exited(timeout: 60) == 0, "\(zenity.ending): \(zenity.printed); the session: \(desktop.log)")
        let chosen = try #require(zenity.printed.split(separator: "\n").last { $0.hasPrefix("/") }.map(String.init), "\(zenity.printed)")
        #expect(chosen.hasPrefix(desktop.picks + "/") && chosen.hasSuffix("/plain.jpg"), "an unsandboxed app gets the copy's own path: \(chosen)")
        #expect(FileManager.default.contents(atPath: chosen) == FileManager.default.contents(atPath: daemon.library.path("Trip/plain.jpg")))
        var status = stat()
        #expect(stat(chosen, &status) == 0 && status.st_mode & 0o777 == 0o400, "the copy is read-only, the owner's alone")
        #expect(try await daemon.ok("report", PortalApp.hostApp.rawValue).contains("picked"))

        // photolibctl doctor, run by the person, says file dialogs come to photolibd, and why: it reads where the
        // running xdg-desktop-portal finds its .portal files and which desktop names it was given.
        let doctor = desktop.command(try ReachableCopies.binary("photolibctl"), ["doctor", "--socket", daemon.library.socket])
        let said = try await run(doctor[0], Array(doctor.dropFirst())).stdout
        #expect(said.contains("file-dialogs: On: xdg-desktop-portal runs with XDG_CURRENT_DESKTOP=photolibd:gnome"), "\(said)")
    }
}
