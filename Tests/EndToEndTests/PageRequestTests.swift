import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem
import Testing

/// The page answering apps as they ask: a request's sheet and a pick's, shown without a reload.
extension PageTests {
    /// Opens the page in Chromium, waits until it is open, then starts `app` (a command run as the app):
    /// the sheet must appear without a reload, and the driver answers it with `choice` and `names`.
    func answerOnThePage(_ page: PageSession, _ app: [String], _ choice: String, _ names: [String], shots: String, toggles: [String] = []) async throws
        -> (sheet: [String: Any], app: SpawnedProcess) {
        let driverOutput = page.daemon.library.root + "/driver-\(UInt32.random(in: 0..<UInt32.max)).out"
        let appOutput = page.daemon.library.root + "/app-\(UInt32.random(in: 0..<UInt32.max)).out"
        let rest = [choice] + names + ["--shots", shots] + toggles.flatMap { ["--toggle", $0] }
        let (driver, started) = try await page.inBrowserTurn {
            var driver = try await page.browser(["sheet", try page.signInLink(page.url)] + rest, output: driverOutput)
            try await waitUntil("the page to be open in the browser", while: driver) { driver.printed.contains("ready\n") }
            let started = try SpawnedProcess(app[0], Array(app.dropFirst()), output: appOutput)
            if await driver.exited(timeout: 120) != 0, driver.printed.contains("the browser has closed the connection") {
                // Chromium itself died under the driver (as `drive` allows for): the request still waits,
                // and a page opened afresh shows its sheet, so the person's answer is given there.
                FileHandle.standardError.write(Data("chromium died under the sheet; answering again: \(driver.printed.suffix(300))\n".utf8))
                driver = try await page.browser(["sheet", try page.freshLink()] + rest, output: driverOutput + ".again")
            }
            guard await driver.exited(timeout: 120) == 0 else {
                // What the app heard and what the daemon did with its request: a sheet that never came is one of them.
                throw TestFailure("the browser driver \(driver.ending); the app \(started.ending); "
                                  + "the daemon: \(page.daemon.log.suffix(4000))")
            }
            return (driver, started)
        }
        let last = driver.printed.split(separator: "\n").last.map(String.init) ?? ""
        let sheet = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(driver.printed)")
        return (sheet, started)
    }

    @Test("an app's requestAuthorization appears on the open page as a sheet, without a reload; Select Photos… and two tiles answer it, and the app hears limited with those two")
    func requestAnsweredOnThePage() async throws {
        let daemon = try await Self.startedWithPhotos(["Trips/beach.jpg", "Trips/hill.jpg", "Home/cat.jpg"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid), "--purpose", "Shows your holiday photos")
        chmod(daemon.library.root, 0o711)  // the app passes through to the socket, as through a home
        let page = try await PageSession(daemon)
        let subscriber = ["/usr/bin/setpriv", "--reuid=\(Self.viewer.uid)", "--regid=\(Self.viewer.uid)", "--clear-groups",
                          "/usr/bin/python3", try ReachableCopies.example("subscriber.py"), Self.viewer.app, "--ask", "--count", "0",
                          "--socket", daemon.library.socket]
        let (sheet, app) = try await answerOnThePage(page, subscriber, "select", ["beach.jpg", "cat.jpg"],
                                                     shots: daemon.library.root + "/shots")
        #expect(sheet["title"] as? String == "“\(Self.viewer.app)” Would Like to Access Your Photos", "\(sheet)")
        #expect(await app.exited(timeout: 60) == 0, "\(app.ending)")
        #expect(app.printed.contains("the person answered: limited") && app.printed.contains("listed 2 assets"), "\(app.printed)")
        try await waitUntil("the view to hold the two photos") { await daemon.viewEntries(Self.viewer.app).count == 2 }
        #expect(try await daemon.ok("selection", Self.viewer.app).contains("beach.jpg"))
    }

    @Test("a pick from examples/pick_photos.py is answered on the page by clicking three tiles in an order: the app receives those files, in that order, byte for byte; a photo the app cannot open is shown but cannot be chosen")
    func pickAnsweredOnThePage() async throws {
        let daemon = try await Self.startedWithPhotos(["a.jpg", "b.jpg", "c.jpg", "d.jpg", "raw.cr3"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid), "--location", "precise")
        chmod(daemon.library.root, 0o711)
        let page = try await PageSession(daemon)
        let picker = ["/usr/bin/setpriv", "--reuid=\(Self.viewer.uid)", "--regid=\(Self.viewer.uid)", "--clear-groups",
                      "/usr/bin/python3", try ReachableCopies.example("pick_photos.py"), "--socket", daemon.library.socket,
                      "--limit", "3", "--ordered", "--types", "image", "--accepts", "image/jpeg"]
        let (sheet, app) = try await answerOnThePage(page, picker, "pick", ["c.jpg", "a.jpg", "d.jpg"],
                                                     shots: ProcessInfo.processInfo.environment["PHOTOLIBD_SHOTS"] ?? daemon.library.root + "/shots")
        #expect(sheet["kind"] as? String == "pick", "\(sheet)")
        #expect(sheet["unreadable"] as? [String] == ["raw.cr3"], "the app reads JPEG, and no JPEG is made of a CR3: \(sheet)")
        #expect((sheet["note"] as? String)?.hasSuffix("once, with where they were taken; nothing else is shared.") == true,
                "an app with precise location is said to get it: \(sheet)")
        #expect(await app.exited(timeout: 60) == 0, "\(app.ending)")
        let lines = app.printed.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let picked = try #require(lines.first { $0["step"] as? String == "picked" }, "\(app.printed)")
        let files = ((picked["assets"] as? [[String: Any]]) ?? []).flatMap { ($0["files"] as? [[String: Any]]) ?? [] }
        #expect(files.compactMap { $0["name"] as? String } == ["c.jpg", "a.jpg", "d.jpg"], "\(picked)")
        for (file, name) in zip(files, ["c.jpg", "a.jpg", "d.jpg"]) {
            let digest = try await run("/usr/bin/sha256sum", [daemon.library.path(name)]).stdout.prefix(64)
            #expect(file["sha256"] as? String == String(digest), "\(name) arrived unchanged")
        }
        #expect(await daemon.viewEntries(Self.viewer.app).isEmpty, "a pick grants nothing")
        let report = try await daemon.ok("report", Self.viewer.app)
        #expect(report.contains("picked"), "\(report)")
        // The Report lists the app among those with one-time photo selection, as iOS does.
        let shown = try await page.drive(["show", try page.freshLink(), "report",
                                          "--shots", ProcessInfo.processInfo.environment["PHOTOLIBD_SHOTS"] ?? daemon.library.root + "/shots"])
        let oneTime = ((shown["checks"] as? [String]) ?? []).filter { $0.hasPrefix(Self.viewer.app + " — ") }
        #expect(oneTime.count == 1 && oneTime[0].contains("3 photos handed once") && oneTime[0].hasSuffix("it keeps no access to your library."),
                "\(shown)")
    }

    @Test("the pick sheet's Options, clicked: location off and captions on for this pick; exiftool finds in the received bytes the caption, no location and no serial number; the app's card changes its default")
    func pickOptionsOnThePage() async throws {
        let daemon = try await Self.startedWithPhotos(["Trip/photo.jpg"]) { lib in
            let result = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original_in_place"] + PickMetadataTests.tags + [lib.path("Trip/photo.jpg")])
            guard result.status == 0 else { throw TestFailure("exiftool failed: \(result.stderr)") }
        }
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid), "--location", "precise")
        chmod(daemon.library.root, 0o711)
        let save = daemon.library.root + "/received"
        try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true)
        chown(save, uid_t(Self.viewer.uid), gid_t(Self.viewer.uid))
        let page = try await PageSession(daemon)
        let picker = ["/usr/bin/setpriv", "--reuid=\(Self.viewer.uid)", "--regid=\(Self.viewer.uid)", "--clear-groups",
                      "/usr/bin/python3", try ReachableCopies.example("pick_photos.py"), "--socket", daemon.library.socket, "--save", save]
        let (sheet, app) = try await answerOnThePage(page, picker, "pick", ["photo.jpg"],
                                                     shots: ProcessInfo.processInfo.environment["PHOTOLIBD_SHOTS"] ?? daemon.library.root + "/shots",
                                                     toggles: ["Location", "Captions and people"])
        #expect(sheet["note"] as? String
                == "\(Self.viewer.app) gets the photos you add, once, without where they were taken, with their captions and the people named in them; nothing else is shared.",
                "the note follows the options: \(sheet)")
        #expect(await app.exited(timeout: 60) == 0, "\(app.ending)")
        let saved = try #require(try FileManager.default.contentsOfDirectory(atPath: save).first, "\(app.printed)")
        let tags = try await PickMetadataTests.tags(of: save + "/" + saved)
        #expect(tags["GPS:GPSLatitude"] == nil, "location off for this pick: \(tags)")
        #expect(tags["XMP-dc:Description"] as? String == "\(PickMetadataTests.person) at the beach", "captions on for this pick: \(tags)")
        #expect(tags["ExifIFD:SerialNumber"] == nil && tags["ExifIFD:LensSerialNumber"] == nil, "never a serial number: \(tags)")
        // The app's own settings did not change: a pick's options are the pick's.
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        let viewer = apps.first { $0.app == Self.viewer.app }
        #expect(viewer?.location == "precise" && viewer?.captions == "removed", "\(String(describing: viewer))")
        // The app's card sets what its picks share when the person says nothing.
        let set = try await page.drive(["setting", try page.freshLink(), Self.viewer.app, "Captions and people for \(Self.viewer.app)", "Shared"])
        #expect((set["notice"] as? String)?.contains("captions and people's names leave with what it picks") == true, "\(set)")
        let after = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first { $0.app == Self.viewer.app }
        #expect(after?.captions == "shared", "\(String(describing: after))")
    }
}
