import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem
import Testing

/// The person's page (SPEC §10) in headless Chromium, against the real daemon run by an ordinary owner.
@Suite("The person's page", .serialized)
struct PageTests {
    static let viewer = (app: "org.example.Viewer", uid: 4281)

    /// Real JPEGs made with libvips' own command line (each a different picture), and a library holding them.
    static func startedWithPhotos(_ names: [String], extra: (TestLibrary) async throws -> Void = { _ in }) async throws -> RunningDaemon {
        try await RunningDaemon.startedByOwner { lib in
            for (index, name) in names.enumerated() {
                let made = lib.root + "/made-\(index).jpg"
                let result = try await run("/usr/bin/vips", ["text", made, "photo \(index + 1)", "--dpi", "300"])
                guard result.status == 0 else { throw TestFailure("vips text failed: \(result.stderr)") }
                try lib.copy(made, to: name)
                unlink(made)
            }
            try await extra(lib)
        }
    }

    @Test("clicking two tiles on Edit Selected Photos and saving grants exactly those two photos; the app's view holds them")
    func grantTwoPhotosByClicking() async throws {
        let daemon = try await Self.startedWithPhotos(["Trips/beach.jpg", "Trips/hill.jpg", "Home/cat.jpg", "Home/dog.jpg"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid), "--purpose", "Shows your holiday photos")
        try await daemon.ok("authorize", Self.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let shots = daemon.library.root + "/shots"
        let result = try await page.drive(["grant", page.url, Self.viewer.app, "beach.jpg", "cat.jpg", "--shots", shots])
        #expect((result["checked"] as? [String])?.count == 2, "\(result)")
        #expect((result["checked"] as? [String])?.allSatisfy { $0.hasPrefix("beach.jpg, ") || $0.hasPrefix("cat.jpg, ") } == true,
                "each tile is named by its file name, then its date: \(result)")
        #expect(result["access"] as? String == "Selected Photos (2)", "\(result)")
        let ids = try await daemon.assets()
        let expected = Set([try #require(ids["Trips/beach.jpg"]), try #require(ids["Home/cat.jpg"])])
        let selection = try await JSONDecoder().decode(SelectionResult.self, from: Data(try daemon.ok("selection", Self.viewer.app, "--json").utf8))
        #expect(Set(selection.assets.map(\.id)) == expected)
        // The view holds those two photos' bytes and nothing else.
        try await waitUntil("the view to hold the two photos") { await daemon.viewEntries(Self.viewer.app).count == 2 }
        let view = await daemon.view(Self.viewer.app)
        let held = await Set(try daemon.viewEntries(Self.viewer.app).map { try Data(contentsOf: URL(fileURLWithPath: view + "/" + $0)) })
        let originals = Set(try ["Trips/beach.jpg", "Home/cat.jpg"].map { try Data(contentsOf: URL(fileURLWithPath: daemon.library.path($0))) })
        #expect(held == originals)
        // The screenshots a person would see are there (docs/ keeps copies).
        for name in ["apps", "grid", "apps-after"] {
            #expect(FileManager.default.fileExists(atPath: shots + "/\(name).png"), "\(name).png")
        }
        // The thumbnails went into the freedesktop cache the desktop shares.
        let cache = daemon.library.root + "/.cache/thumbnails/large"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { $0.hasSuffix(".png") }.count >= 4)
    }

    @Test("without the one-time secret nobody gets in: no cookie, a wrong one, a used link, another uid, a sandbox on the network, a rebinding Host, a foreign Origin, no CSRF token")
    func attacksAreRefused() async throws {
        let daemon = try await Self.startedWithPhotos(["a.jpg"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid))
        try await daemon.ok("authorize", Self.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let (cookie, csrf) = try await page.signIn()
        let signedIn = try await page.request("GET", "/api/apps", headers: ["Cookie": cookie])
        #expect(signedIn.status == 200 && signedIn.body.contains(Self.viewer.app), "\(signedIn)")
        let assetID = try #require(try await daemon.assets()["a.jpg"])
        _ = try await page.request("GET", "/api/assets?limit=10", headers: ["Cookie": cookie])  // the page lists it, so its thumbnail exists
        let thumbnail = try await page.request("GET", "/thumbs/\(assetID)", headers: ["Cookie": cookie])
        #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/png", "\(thumbnail.status)")

        // Every reader without the session gets a refusal and no data, thumbnails included.
        for path in ["/api/apps", "/api/assets", "/thumbs/\(assetID)", "/", "/api/apps/\(Self.viewer.app)/selection"] {
            let none = try await page.request("GET", path)
            #expect(none.status == 401 && !none.body.contains(Self.viewer.app) && !none.body.contains("a.jpg"), "\(path): \(none)")
            let wrong = try await page.request("GET", path, headers: ["Cookie": "photolibd_page=" + String(repeating: "0", count: 64)])
            #expect(wrong.status == 401, "\(path) with a wrong cookie: \(wrong.status)")
        }
        // A link works once.
        let link = try await page.freshLink()
        #expect(try await page.request("GET", String(link.dropFirst(page.base.count))).status == 200)
        #expect(try await page.request("GET", String(link.dropFirst(page.base.count))).status == 403, "a used link is refused")
        // Another uid on the machine, and a sandboxed process sharing the network, reach the port and get nothing.
        let stranger = ["/usr/bin/setpriv", "--reuid=54391", "--regid=54391", "--clear-groups"]
        #expect(try await page.request("GET", "/api/apps", as: stranger).status == 401)
        let owner = try #require(daemon.library.owner)
        let sandbox = owner.command("/usr/bin/bwrap") + ["--unshare-all", "--share-net", "--die-with-parent", "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin", "--proc", "/proc",
            "--dev", "/dev", "--ro-bind", try ReachableCopies.browserTool("http_probe.py"), try ReachableCopies.browserTool("http_probe.py"), "--"]
        let sandboxed = try await page.request("GET", "/api/apps", as: sandbox)
        #expect(sandboxed.status == 401 && !sandboxed.body.contains(Self.viewer.app), "\(sandboxed)")
        // DNS rebinding: a page at another name that resolves here is refused, cookie or not.
        let rebound = try await page.request("GET", "/api/apps", headers: ["Cookie": cookie, "Host": "photos.attacker.example:\(page.port)"])
        #expect(rebound.status == 421 && !rebound.body.contains(Self.viewer.app), "\(rebound)")
        // A change from another origin, or without the token, is refused and changes nothing.
        let grant = #"{"select":["\#(assetID)"]}"#
        let path = "/api/apps/\(Self.viewer.app)/selection"
        let foreign = try await page.request("POST", path, headers: ["Cookie": cookie, "Origin": "http://attacker.example", "X-CSRF-Token": csrf,
                                                                "Content-Type": "application/json"], body: grant)
        #expect(foreign.status == 403, "\(foreign)")
        let tokenless = try await page.request("POST", path, headers: ["Cookie": cookie, "Origin": page.base, "Content-Type": "application/json"], body: grant)
        #expect(tokenless.status == 403, "\(tokenless)")
        #expect(try await daemon.ok("selection", Self.viewer.app, "--json").contains("\"assets\" : [\n\n  ]"), "nothing was granted")
        // The page itself may: same origin, token, session.
        let allowed = try await page.request("POST", path, headers: ["Cookie": cookie, "Origin": page.base, "X-CSRF-Token": csrf,
                                                                "Content-Type": "application/json"], body: grant)
        #expect(allowed.status == 200, "\(allowed)")
        #expect(try await daemon.ok("selection", Self.viewer.app).contains("a.jpg"))
        // No framing, nothing from elsewhere.
        let headers = signedIn.headers
        #expect(headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true && headers["x-frame-options"] == "DENY", "\(headers)")
        #expect(headers["content-security-policy"]?.contains("default-src 'self'") == true)
        // Guessing is cut short: five wrong secrets in a minute (the used link above was one) shut sign-in,
        // and then even a right link is refused.
        var statuses: [Int] = []
        for attempt in 0..<5 {
            await statuses.append(try page.request("GET", "/sign-in?id=\(String(repeating: "0", count: 31))\(attempt)&secret=" + String(repeating: "f", count: 64)).status)
        }
        #expect(statuses == [403, 403, 403, 403, 429], "\(statuses)")
        let refused = try await page.request("GET", String((try page.freshLink()).dropFirst(page.base.count)))
        #expect(refused.status == 429 && refused.body.contains("Too many wrong sign-in attempts"), "\(refused.status) \(refused.body)")
    }

    @Test("every kind of photo a library holds gets a thumbnail (JPEG, PNG, WebP, TIFF, HEIC, AVIF, a raw file by the JPEG it carries), and a Live Photo shows its still with a Live badge")
    func everyFormatHasAThumbnail() async throws {
        let daemon = try await Self.startedWithPhotos(["source.jpg"]) { lib in
            let source = lib.path("source.jpg")
            let made = lib.root + "/made"
            for (name, command) in [("photo.png", ["/usr/bin/vips", "copy", source, made + ".png"]),
                                    ("photo.webp", ["/usr/bin/vips", "copy", source, made + ".webp"]),
                                    ("photo.tif", ["/usr/bin/vips", "copy", source, made + ".tif"]),
                                    ("photo.heic", ["/usr/bin/heif-enc", "-q", "50", source, "-o", made + ".heic"]),
                                    ("photo.avif", ["/usr/bin/heif-enc", "--avif", "-q", "50", source, "-o", made + ".avif"]),
                                    ("Live/IMG_7.HEIC", ["/usr/bin/heif-enc", "-q", "50", source, "-o", made + "-live.heic"]),
                                    // A raw file whose camera JPEG is the (wide) photo, turned a quarter by its Orientation.
                                    ("preview.jpg", ["/usr/bin/vips", "resize", source, made + "-preview.jpg", "2"]),
                                    ("photo.dng", ["/usr/bin/python3", RunningDaemon.script("make-raw-with-preview"), made + ".dng",
                                                   made + "-preview.jpg", "6"])] {
                let result = try await run(command[0], Array(command.dropFirst()))
                guard result.status == 0 else { throw TestFailure("\(command[0]) failed: \(result.stderr)") }
                let output = command.last == made + "-live.heic" ? made + "-live.heic" : name == "photo.dng" ? made + ".dng" : command.last!
                guard name != "preview.jpg" else { continue }
                try lib.copy(output, to: name)
                unlink(output)
            }
            unlink(made + "-preview.jpg")
            try lib.write("Live/IMG_7.MOV", contents: "the motion half")
        }
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid))
        try await daemon.ok("authorize", Self.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let result = try await page.drive(["search", page.url, Self.viewer.app, ""])
        let expected = ["IMG_7.HEIC", "photo.avif", "photo.dng", "photo.heic", "photo.png", "photo.tif", "photo.webp", "source.jpg"]
        #expect((result["shown"] as? [String: [String]])?[""] == expected, "one tile each, the Live Photo once: \(result)")
        #expect(result["painted"] as? [String] == expected, "each with its thumbnail painted: \(result)")
        #expect((result["badges"] as? [String: String])?["IMG_7.HEIC"] == "Live", "\(result)")
        // The raw file's thumbnail is its camera JPEG's, stood upright: not the grey strip libvips would read as a TIFF.
        let (cookie, _) = try await page.signIn()
        let raw = try await page.request("GET", "/thumbs/\(try #require(try await daemon.assets()["photo.dng"]))", headers: ["Cookie": cookie])
        #expect(raw.status == 200 && raw.headers["content-type"] == "image/png", "\(raw.status) \(raw.headers)")
        let thumbnail = daemon.library.root + "/raw-thumbnail.png"
        try Data(raw.bodyBytes).write(to: URL(fileURLWithPath: thumbnail))
        let size = try await run("/usr/bin/vipsheader", ["-f", "width", thumbnail]).stdout + "x" + run("/usr/bin/vipsheader", ["-f", "height", thumbnail]).stdout
        let sides = size.split(separator: "x").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(sides.count == 2 && sides[1] == 256 && sides[0] < sides[1], "the wide JPEG stood upright, 256 high (the strip would be wide): \(size)")
    }

    @Test("the search box finds photos by name, by album and by date (a year, a month, a day, \"July 2024\"), in the person's time zone")
    func searchByNameAlbumAndDate() async throws {
        // Taken (here: last modified, as no photo carries a date of its own) on days around a month's edges, at noon local time.
        let days: [String: (Int32, Int32, Int32)] = ["Trips/beach.jpg": (2024, 7, 14), "Trips/hill.jpg": (2024, 8, 1),
                                                     "Home/cat.jpg": (2023, 3, 1), "Home/summer-dog.jpg": (2024, 7, 31)]
        let daemon = try await Self.startedWithPhotos(Array(days.keys).sorted()) { lib in
            for (name, day) in days {
                var noon = tm()
                (noon.tm_year, noon.tm_mon, noon.tm_mday, noon.tm_hour, noon.tm_isdst) = (day.0 - 1900, day.1 - 1, day.2, 12, -1)
                let seconds = mktime(&noon)
                var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
                guard utimensat(AT_FDCWD, lib.path(name), &times, 0) == 0 else { throw TestFailure("cannot date \(name)") }
            }
        }
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid))
        try await daemon.ok("authorize", Self.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let result = try await page.drive(["search", page.url, Self.viewer.app, "trips", "summer", "2024", "2024-07", "July 2024", "2024-08-01", "zebra", ""])
        let shown = try #require(result["shown"] as? [String: [String]], "\(result)")
        #expect(shown["trips"] == ["beach.jpg", "hill.jpg"], "by album: \(shown)")
        #expect(shown["summer"] == ["summer-dog.jpg"], "by name: \(shown)")
        #expect(shown["2024"] == ["beach.jpg", "hill.jpg", "summer-dog.jpg"], "by year: \(shown)")
        #expect(shown["2024-07"] == ["beach.jpg", "summer-dog.jpg"], "by month: \(shown)")
        #expect(shown["July 2024"] == ["beach.jpg", "summer-dog.jpg"], "by month's name: \(shown)")
        #expect(shown["2024-08-01"] == ["hill.jpg"], "by day: \(shown)")
        #expect(shown["zebra"] == [] && (result["notes"] as? [String: String])?["zebra"] == "No photos match.", "\(result)")
        #expect(shown[""]?.count == 4, "all again: \(shown)")
    }

    @Test("the Apps list follows changes made elsewhere: photolibctl authorize shows on the open page without a reload")
    func appsFollowChanges() async throws {
        let daemon = try await Self.startedWithPhotos(["a.jpg", "b.jpg"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid))
        let page = try await PageSession(daemon)
        let output = daemon.library.root + "/follow.out"
        let link = try await page.freshLink()
        let driver = try await page.inBrowserTurn {
            let driver = try await page.browser(["follow", try page.signInLink(link), Self.viewer.app, "Full Access (all 2 photos)"], output: output)
            try await waitUntil("the apps page to be open", while: driver) { driver.printed.contains("ready\n") }
            try await daemon.ok("authorize", Self.viewer.app, "authorized")
            guard await driver.exited(timeout: 90) == 0 else { throw TestFailure("the browser driver \(driver.ending): \(driver.printed)") }
            return driver
        }
        let last = driver.printed.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(driver.printed)")
        #expect((seen["before"] as? String)?.contains("Full Access (all 2 photos)") == false, "\(seen)")
        #expect(seen["reloaded"] as? Bool == false, "the page was not reloaded: \(seen)")
    }

    @Test("a site that frames the page, in Chromium signed in, gets the browser's refusal in its frame, and nothing of the page")
    func framingIsRefused() async throws {
        let daemon = try await Self.startedWithPhotos(["a.jpg"])
        let page = try await PageSession(daemon)
        let framed = try await page.drive(["frame", try page.freshLink()])
        let inside = try #require(framed["frame"] as? [String: Any])
        #expect((inside["url"] as? String)?.hasPrefix("chrome-error://") == true, "the frame holds the browser's refusal: \(framed)")
        #expect((inside["text"] as? String)?.contains("Photos") != true, "\(framed)")
        #expect((framed["log"] as? [String])?.contains { $0.contains("frame-ancestors") } == true, "the browser says why: \(framed)")
    }

    @Test("a click on a request's desktop notification opens its sheet on the page, where the person answers it")
    func notificationOpensTheSheet() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        try library.write("a.jpg")
        let owner = try #require(library.owner)
        // A private session bus and a notification service run by the owner; the service offers
        // actions and clicks each notification's button at once, as the person would.
        let bus = try await PrivateSessionBus.start(for: library, owner: owner)
        defer { bus.stop() }
        let address = bus.address
        let record = library.root + "/notifications.jsonl"
        let serviceCommand = owner.command("/usr/bin/env") + ["DBUS_SESSION_BUS_ADDRESS=\(address)", "/usr/bin/python3",
                                                             try ReachableCopies.browserTool("notification_service.py"), record, "--click"]
        let service = try SpawnedProcess(serviceCommand[0], Array(serviceCommand.dropFirst()), output: library.root + "/service.out")
        defer { service.signal(SIGTERM) }
        try await waitUntil("the notification service to own its name", while: service) { service.printed.contains("ready") }
        // The person's browser, as $BROWSER names it: it records what it was asked to open.
        let opened = library.root + "/opened"
        let browser = library.root + "/browser.sh"
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> \(opened)\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)

        let daemon = try RunningDaemon(library)
        try await daemon.start(environment: ["DBUS_SESSION_BUS_ADDRESS": address, "BROWSER": browser])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid), "--purpose", "Shows your holiday photos")
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        let endpoint = try #require(apps.first { $0.app == Self.viewer.app }?.endpoint)
        let asked = try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60).requestAuthorization(wait: false)
        let request = try #require(asked.request)
        do {
            // A whole line: the shell creates the file before it writes to it.
            try await waitUntil("the click to open the browser") {
                ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").contains("\n")
            }
        } catch {
            let page = (try? String(contentsOfFile: PagePaths(socket: library.socket).logFile, encoding: .utf8)) ?? "(no page log)"
            throw TestFailure("\(error); the daemon logged: \(daemon.log); the service: \(service.printed); the page's log: \(page)")
        }
        let shown = try #require(try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").first)
        #expect(shown.contains("\"open-page\"") && shown.contains("Review on Your Photos Page"), "the notification offers the page: \(shown)")
        let signIn = try #require(try String(contentsOfFile: opened, encoding: .utf8).split(separator: "\n").first.map(String.init))
        #expect(try String(contentsOfFile: signIn, encoding: .utf8).contains("request-\(request)"), "the page opens on request \(request)")
        // What the browser then shows: that request's sheet, answered as the person would.
        let page = try await PageSession(daemon)
        let sheet = try await page.drive(["sheet", "file://" + signIn, "full"])
        #expect(sheet["title"] as? String == "“\(Self.viewer.app)” Would Like to Access Your Photos", "\(sheet)")
        try await waitUntil("the request to be answered") {
            try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.isEmpty
        }
        let appsNow = try await daemon.ok("apps")
        #expect(appsNow.contains("Full Access") || appsNow.contains("authorized"), "\(appsNow)")
    }

    @Test("hostile images get a placeholder while the other thumbnails, and the page, go on; a decoder that dies is replaced")
    func hostileImagesArePlaceholders() async throws {
        let daemon = try await Self.startedWithPhotos(["good.jpg", "good2.jpg", "source.jpg"]) { lib in
            let good = try Data(contentsOf: URL(fileURLWithPath: lib.path("good.jpg")))
            try lib.write("truncated.jpg", contents: "")
            try good.prefix(good.count / 3).write(to: URL(fileURLWithPath: lib.path("truncated.jpg")))
            try lib.write("empty.jpg", contents: "")
            try lib.write("huge.png", contents: "")  // the owner's file first, then the crafted bytes
            try Data(Self.pngClaiming(width: 50_000, height: 50_000)).write(to: URL(fileURLWithPath: lib.path("huge.png")))
            // A real HEIC whose header (its ispe boxes) claims 60,000 x 60,000 pixels.
            let heic = lib.root + "/made.heic"
            let made = try await run("/usr/bin/heif-enc", ["-q", "50", lib.path("source.jpg"), "-o", heic])
            guard made.status == 0 else { throw TestFailure("heif-enc failed: \(made.stderr)") }
            try lib.write("huge.heic", contents: "")
            try Data(try Self.heicClaiming(60_000, 60_000, Array(Data(contentsOf: URL(fileURLWithPath: heic)))))
                .write(to: URL(fileURLWithPath: lib.path("huge.heic")))
            unlink(heic)
        }
        let page = try await PageSession(daemon)
        let (cookie, _) = try await page.signIn()
        _ = try await page.request("GET", "/api/assets?limit=50", headers: ["Cookie": cookie])
        let ids = try await daemon.assets()
        for name in ["truncated.jpg", "empty.jpg", "huge.png", "huge.heic"] {
            let answer = try await page.request("GET", "/thumbs/\(try #require(ids[name]))", headers: ["Cookie": cookie])
            #expect(answer.status == 200 && answer.headers["content-type"] == "image/svg+xml", "\(name): \(answer.status) \(answer.headers)")
        }
        let good = try await page.request("GET", "/thumbs/\(try #require(ids["good.jpg"]))", headers: ["Cookie": cookie])
        #expect(good.status == 200 && good.headers["content-type"] == "image/png")
        let handle = try #require(page.server, "no page server runs")
        let server = handle.pid
        // No image is decoded in the page server: its decoders are processes of their own. Kill them
        // all, as a crash would: the next thumbnail comes from a new decoder, and the server goes on.
        let decoders = try ChildProcesses.allPinned(childrenOf: handle, named: "photolibd-thumbnailer")
        #expect(!decoders.isEmpty, "the page server has decoder processes")
        let maps = (try? String(contentsOfFile: "/proc/\(server)/maps", encoding: .utf8)) ?? ""
        #expect(!maps.isEmpty && !maps.contains("libvips"), "the page server itself maps no image decoder")
        for decoder in decoders { try decoder.signal(SIGKILL) }
        let after = try await page.request("GET", "/thumbs/\(try #require(ids["good2.jpg"]))", headers: ["Cookie": cookie])
        #expect(after.status == 200 && after.headers["content-type"] == "image/png", "\(after.status) \(after.headers)")
        #expect(try handle.isAlive(), "the page server is still up")
    }

    /// A HEIC's bytes with every `ispe` box (the image's stated size) claiming `width` x `height`.
    static func heicClaiming(_ width: UInt32, _ height: UInt32, _ heic: [UInt8]) throws -> [UInt8] {
        var bytes = heic
        var patched = 0
        var index = 0
        while index + 16 <= bytes.count {
            if bytes[index..<index + 4].elementsEqual("ispe".utf8) {
                bytes.replaceSubrange(index + 8..<index + 16, with: bigEndian(width) + bigEndian(height))
                patched += 1
            }
            index += 1
        }
        guard patched > 0 else { throw TestFailure("heif-enc wrote no ispe box") }
        return bytes
    }

    @Test("the Report shows, per app and day, the thumbnail of a photo the app opened through its view, with the time; the Library says all is well in plain words")
    func reportAndLibrary() async throws {
        let daemon = try await Self.startedWithPhotos(["Trips/beach.jpg", "Trips/hill.jpg"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid), "--location", "precise")
        try await daemon.ok("authorize", Self.viewer.app, "limited")
        try await daemon.ok("select", Self.viewer.app, "Trips/beach.jpg")
        chmod(daemon.library.root, 0o711)
        // The app opens its photo through its view, as its uid.
        let view = await daemon.view(Self.viewer.app)
        try await waitUntil("the view to hold the photo") { await daemon.viewEntries(Self.viewer.app).count == 1 }
        let entry = try #require(await daemon.viewEntries(Self.viewer.app).first)
        let opened = try await run("/usr/bin/setpriv", ["--reuid=\(Self.viewer.uid)", "--regid=\(Self.viewer.uid)", "--clear-groups", "/bin/cat",
                                                  view + "/" + entry])
        #expect(opened.status == 0, "\(opened.stderr)")
        try await waitUntil("the open to be in the report") { try await daemon.ok("report", Self.viewer.app).contains("beach.jpg") }
        let page = try await PageSession(daemon)
        let report = try await page.drive(["show", page.url, "report", "--shots", daemon.library.root + "/shots"])
        #expect(report["apps"] as? [String] == [Self.viewer.app], "\(report)")
        let entries = try #require(report["entries"] as? [String])
        #expect(entries.count == 1 && entries[0].hasPrefix("beach.jpg — opened at "), "\(report)")
        #expect(report["thumbnails"] as? Int == 1, "the photo's thumbnail is shown: \(report)")
        let library = try await page.drive(["show", try page.freshLink(), "library"])
        #expect((library["state"] as? String)?.contains("Everything is up to date") == true, "\(library)")
        #expect(((library["checks"] as? [String]) ?? []).contains { $0.hasPrefix("OK: ") }, "\(library)")
    }

    @Test("from the keyboard alone (Tab into the grid, an arrow, Space, Enter) a photo is granted, with a whole album shared live beside it")
    func keyboardAndAlbum() async throws {
        let daemon = try await Self.startedWithPhotos(["Trips/beach.jpg", "Trips/hill.jpg", "Home/cat.jpg"])
        try await daemon.ok("app", "add", Self.viewer.app, "--uid", String(Self.viewer.uid))
        try await daemon.ok("authorize", Self.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let result = try await page.drive(["keys", page.url, Self.viewer.app, "Home"])
        let toggled = try #require(result["toggled"] as? String)
        #expect(toggled != result["first"] as? String, "the arrow moved the focus: \(result)")
        #expect(result["focusRing"] as? String != "none", "the focused tile shows a ring: \(result)")
        let selection = try await JSONDecoder().decode(SelectionResult.self, from: Data(try daemon.ok("selection", Self.viewer.app, "--json").utf8))
        #expect(selection.albums == ["Home"], "\(selection)")
        let name = String(toggled.prefix { $0 != "," })
        #expect(selection.assets.map { $0.path.split(separator: "/").last.map(String.init) } == [name], "\(selection) \(result)")
        // The album is live: a photo added to it later joins the app's view.
        try daemon.library.write("Home/new.jpg")
        try await waitUntil("the new photo to join the view") { await daemon.viewEntries(Self.viewer.app).count == 3 }
    }

    @Test("a video's thumbnail is a frame from it (ffmpegthumbnailer), in the freedesktop cache with its URI and mtime; a video with no frame gets a placeholder")
    func videoThumbnail() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            let made = lib.root + "/clip.mp4"
            let result = try await run("/usr/bin/ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "2",
                                                     "-pix_fmt", "yuv420p", made])
            guard result.status == 0 else { throw TestFailure("ffmpeg could not make a test video: \(result.stderr)") }
            try lib.copy(made, to: "Home/clip.mp4")
            try lib.write("Home/broken.mp4", contents: "not a video at all")
            // Its header intact, its media data gone: no frame, but it still says how long it is.
            let header = lib.root + "/header-first.mp4"
            let remux = try await run("/usr/bin/ffmpeg", ["-loglevel", "error", "-i", made, "-c", "copy", "-movflags", "+faststart", header])
            guard remux.status == 0 else { throw TestFailure("ffmpeg could not remux: \(remux.stderr)") }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: header)))
            let mdat = try #require(Self.topLevelBox("mdat", in: bytes), "no mdat box in \(header)")
            try lib.write("Home/cut.mp4", contents: "")
            try Data(bytes[..<mdat]).write(to: URL(fileURLWithPath: lib.path("Home/cut.mp4")))
        }
        let page = try await PageSession(daemon)
        let (cookie, _) = try await page.signIn()
        _ = try await page.request("GET", "/api/assets?limit=50", headers: ["Cookie": cookie])
        let ids = try await daemon.assets()
        let frame = try await page.request("GET", "/thumbs/\(try #require(ids["Home/clip.mp4"]))", headers: ["Cookie": cookie])
        #expect(frame.status == 200 && frame.headers["content-type"] == "image/png", "\(frame.status) \(frame.headers)")
        let broken = try await page.request("GET", "/thumbs/\(try #require(ids["Home/broken.mp4"]))", headers: ["Cookie": cookie])
        #expect(broken.headers["content-type"] == "image/svg+xml" && broken.body.contains("Video"), "\(broken.headers)")
        #expect(!broken.body.contains("y=\"164\""), "a file that is no video has no length to show")
        let cut = try await page.request("GET", "/thumbs/\(try #require(ids["Home/cut.mp4"]))", headers: ["Cookie": cookie])
        #expect(cut.headers["content-type"] == "image/svg+xml" && cut.body.contains("Video") && cut.body.contains(">0:02<"),
                "a video with no frame to show says how long it is: \(cut.body)")
        // The cache entry names the video's URI, as every desktop thumbnailer would.
        let cache = daemon.library.root + "/.cache/thumbnails/large"
        let cached = try #require((try? FileManager.default.contentsOfDirectory(atPath: cache))?.first { $0.hasSuffix(".png") })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cache + "/" + cached))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let info = try await run("/usr/bin/vipsheader", ["-a", cache + "/" + cached])
        #expect(info.stdout.contains("Thumb::URI") && info.stdout.contains("file://" + daemon.library.path("Home/clip.mp4")), "\(info.stdout)")
    }

    @Test("the freedesktop cache is shared: a file manager's current thumbnail is served as it is; a stale one is made again, with the file's URI and MTime as plain tEXt fields")
    func sharedThumbnailCache() async throws {
        let daemon = try await Self.startedWithPhotos(["current.jpg", "stale.jpg"])
        let page = try await PageSession(daemon)
        let (cookie, _) = try await page.signIn()
        _ = try await page.request("GET", "/api/assets?limit=50", headers: ["Cookie": cookie])
        let ids = try await daemon.assets()
        let cache = daemon.library.root + "/.cache/thumbnails/large"
        let owner = try #require(daemon.library.owner)
        // What a file manager run by the owner leaves: a 7 x 5 PNG named by the MD5 of the file's URI.
        func fileManagerThumbnail(of name: String, mtime: Int64) async throws -> String {
            let uri = "file://" + daemon.library.path(name)
            let md5 = try await run("/bin/sh", ["-c", "printf %s \"$0\" | md5sum", uri]).stdout.prefix(32)
            let plain = daemon.library.root + "/plain-\(name).png"
            guard try await run("/usr/bin/vips", ["black", plain, "7", "5"]).status == 0 else { throw TestFailure("vips black failed") }
            let path = cache + "/" + md5 + ".png"
            try Data(Self.withTextFields(Array(try Data(contentsOf: URL(fileURLWithPath: plain))),
                                         ["Thumb::URI": uri, "Thumb::MTime": String(mtime)])).write(to: URL(fileURLWithPath: path))
            try owner.own(path)
            return path
        }
        let currentTime = try #require(PathInspection.status(daemon.library.path("current.jpg"))).modificationTime / 1_000_000_000
        let current = try await fileManagerThumbnail(of: "current.jpg", mtime: currentTime)
        let stale = try await fileManagerThumbnail(of: "stale.jpg", mtime: 1_000)
        let served = try await page.request("GET", "/thumbs/\(try #require(ids["current.jpg"]))", headers: ["Cookie": cookie])
        #expect(served.status == 200 && served.headers["content-type"] == "image/png")
        let reused = try await run("/usr/bin/vipsheader", [current]).stdout
        #expect(reused.contains("7x5"), "the file manager's thumbnail is left as it was: \(reused)")
        #expect(served.bodyBytes == Array(try Data(contentsOf: URL(fileURLWithPath: current))), "and served as it is")

        let remade = try await page.request("GET", "/thumbs/\(try #require(ids["stale.jpg"]))", headers: ["Cookie": cookie])
        #expect(remade.status == 200 && remade.headers["content-type"] == "image/png")
        let staleTime = try #require(PathInspection.status(daemon.library.path("stale.jpg"))).modificationTime / 1_000_000_000
        let rewritten = Array(try Data(contentsOf: URL(fileURLWithPath: stale)))
        #expect(PNGText.value(of: "Thumb::MTime", in: rewritten) == String(staleTime), "made again, for the file as it is now")
        #expect(PNGText.value(of: "Thumb::URI", in: rewritten) == "file://" + daemon.library.path("stale.jpg"))
        #expect(await !(try run("/usr/bin/vipsheader", [stale]).stdout.contains("7x5")))
        // What every desktop reader sees too (libvips reads the same fields).
        let fields = try await run("/usr/bin/vipsheader", ["-a", stale]).stdout
        #expect(fields.contains("Thumb::MTime") && fields.contains(String(staleTime)), "\(fields)")
    }

    /// Where the top-level box `type` of an ISO media file starts.
    static func topLevelBox(_ type: String, in bytes: [UInt8]) -> Int? {
        var at = 0
        while at + 8 <= bytes.count {
            let size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if bytes[at + 4..<at + 8].elementsEqual(type.utf8) { return at }
            guard size >= 8 else { return nil }
            at += size
        }
        return nil
    }

    /// `png` with tEXt chunks for `fields` inserted right after its IHDR.
    static func withTextFields(_ png: [UInt8], _ fields: [String: String]) -> [UInt8] {
        var chunks: [UInt8] = []
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            let body = Array("tEXt".utf8) + Array(key.utf8) + [0] + Array(value.utf8)
            chunks += bigEndian(UInt32(body.count - 4)) + body + bigEndian(crc32(body))
        }
        return Array(png[0..<33]) + chunks + Array(png[33...])
    }

    @Test("asked to stop with a page open, the page server ends the page's event stream and exits at once; photolibctl ui then starts a new one")
    func stopsWithAPageOpen() async throws {
        let daemon = try await Self.startedWithPhotos(["a.jpg"])
        let page = try await PageSession(daemon)
        let (cookie, _) = try await page.signIn()
        let reader = """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
            c.request("GET", "/api/events", headers={"Host": "127.0.0.1:" + sys.argv[1], "Cookie": sys.argv[2]})
            r = c.getresponse()
            print("open", r.status, flush=True)
            while r.readline(): pass
            print("ended", flush=True)
            """
        let stream = try SpawnedProcess("/usr/bin/python3", ["-c", reader, String(page.port), cookie],
                                        output: daemon.library.root + "/stream.out")
        try await waitUntil("the event stream to open", while: stream) { stream.printed.contains("open 200") }
        let server = try #require(page.server, "no page server runs")
        let pid = server.pid
        let started = Date()
        try server.signal(SIGTERM)
        #expect(await stream.exited(timeout: 15) == 0, "\(stream.ending)")
        #expect(stream.printed.contains("ended"))
        try await waitUntil("the page server to exit", timeout: 15) {
            try server.hasExited()
        }
        #expect(Date().timeIntervalSince(started) < 10, "it stopped within seconds, not at the next ping")
        // The next photolibctl ui gets a server that answers.
        let next = try await PageSession(daemon)
        #expect(next.serverPID != pid)
        #expect(try await next.request("GET", "/api/apps").status == 401, "a fresh server answers (and wants a sign-in)")
    }

    /// A PNG whose header claims `width` × `height` pixels, with almost no pixel data behind it.
    static func pngClaiming(width: UInt32, height: UInt32) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
