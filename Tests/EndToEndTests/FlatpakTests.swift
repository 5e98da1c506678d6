import Foundation
import Glibc
import PhotoLibProtocol
import Testing

/// SPEC §11 with a real Flatpak: an installed app, run with `flatpak run` by the library's
/// owner, finds exactly its selection where it looks for pictures, and nothing it does there
/// reaches an original.
@Suite("Installed Flatpak apps", .serialized)
struct FlatpakTests {
    static let hello = "org.test.Hello"
    /// The person's own override lines, to be kept byte for byte.
    static let personsOverride = "# mine: downloads for Hello\n[Context]\nfilesystems = xdg-download;\n"

    /// A library of three photos and a private album, run by its owner, with the test apps installed.
    /// `fuse`: whether a limited app's Pictures folder may be served through FUSE (`fuse_views`); on
    /// ext4, as /tmp is here, it holds copies without it.
    /// `launcher`: run before the daemon (`RunningDaemon.start`); `beforeStart` runs once the user exists.
    func started(fuse: Bool = false, launcher: [String] = [], beforeStart: (FlatpakUser) async throws -> Void = { _ in })
        async throws -> (RunningDaemon, FlatpakUser, originals: [String: Data]) {
        let library = try await TestLibrary(owner: try TestOwner())
        let photo = try await Self.realJPEG(in: library.root)
        for name in ["Trip/IMG_1.jpg", "Trip/IMG_2.jpg", "Trip/IMG_3.jpg"] {
            try library.copy(photo, to: name)
            // Each its own bytes, so a copy is told from another.
            let handle = FileHandle(forWritingAtPath: library.path(name))!
            handle.seekToEndOfFile()
            handle.write(Data(name.utf8))
            try handle.close()
        }
        try library.write("Private/secret.jpg", contents: "secret")
        let user = try await FlatpakUser(library, installing: FlatpakRepository.apps.map(\.id))
        try user.writeFile(".local/share/flatpak/overrides/" + Self.hello, Self.personsOverride)
        let daemon = try RunningDaemon(library)
        try await beforeStart(user)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("fuse_views = \(fuse)\n")],
                               environment: ["XDG_CONFIG_HOME": user.home + "/.config", "XDG_DATA_HOME": user.home + "/.local/share"],
                               launcher: launcher)
        var originals: [String: Data] = [:]
        for name in ["Trip/IMG_1.jpg", "Trip/IMG_2.jpg", "Trip/IMG_3.jpg", "Private/secret.jpg"] {
            originals[name] = FileManager.default.contents(atPath: library.path(name))
        }
        return (daemon, user, originals)
    }

    /// A small real JPEG (libvips), so the inbox takes one the app saves.
    static func realJPEG(in directory: String, name: String = "made.jpg") async throws -> String {
        let path = directory + "/" + name
        let result = try await run("/usr/bin/vips", ["black", path, "16", "16"])
        guard result.status == 0 else { throw TestFailure("vips black failed: \(result.stderr)") }
        return path
    }

    func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func contents(_ folder: String) -> [Data] {
        entries(folder).compactMap { FileManager.default.contents(atPath: folder + "/" + $0) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func expectOriginalsIntact(_ daemon: RunningDaemon, _ originals: [String: Data]) {
        for (name, bytes) in originals {
            #expect(FileManager.default.contents(atPath: daemon.library.path(name)) == bytes, "\(name) is byte for byte what it was")
        }
    }

    @Test("Selected Photos: the app finds exactly its selection where it looks for pictures, live; nothing it does there reaches an original; None and Full Access")
    func selectedPhotos() async throws {
        let (daemon, user, originals) = try await started()
        defer { daemon.stopLater(); user.stopSessionHelpers() }
        let app = Self.hello
        let folder = user.picturesFolder(app)
        let overridePath = user.overrides + "/" + app

        let added = try await daemon.ok("app", "add", app, "--flatpak")
        #expect(added.contains("Flatpak app \(app)"))
        // Not yet decided: the app keeps its own access, and the person's override is untouched.
        #expect(try String(contentsOfFile: overridePath, encoding: .utf8) == Self.personsOverride)
        var seen = try await user.runApp(app, "ls -A \"$(xdg-user-dir PICTURES)\"")
        #expect(seen.split(separator: "\n").sorted() == ["Private", "Trip"], "\(seen)")

        try await daemon.ok("authorize", app, "limited")
        try await daemon.ok("select", app, "Trip/IMG_1.jpg", "Trip/IMG_3.jpg")
        let override = try String(contentsOfFile: overridePath, encoding: .utf8)
        #expect(override == "# mine: downloads for Hello\n[Context]\nfilesystems=xdg-download;!xdg-pictures;\npersistent=lib;\n", "\(override)")
        #expect(entries(folder).count == 2)

        // Where the app looks (xdg-user-dir PICTURES, ~/lib): exactly the selection, by content.
        seen = try await user.runApp(app, "P=$(xdg-user-dir PICTURES); echo \"$P\"; ls -A \"$P\"; ls -A ~/lib | wc -l; cat \"$P\"/* | wc -c")
        let lines = seen.split(separator: "\n").map(String.init)
        #expect(lines.first == user.home + "/lib", "\(seen)")
        #expect(Array(lines.dropFirst().prefix(2)).sorted() == entries(folder), "\(seen)")
        #expect(lines.dropFirst(3).first == "2", "\(seen)")
        let selectedBytes = [originals["Trip/IMG_1.jpg"]!, originals["Trip/IMG_3.jpg"]!]
        #expect(lines.last == String(selectedBytes.map(\.count).reduce(0, +)), "\(seen)")
        #expect(contents(folder) == selectedBytes.sorted { $0.lexicographicallyPrecedes($1) })
        // Copies or clones, never the originals' inodes.
        for name in entries(folder) {
            var st = stat()
            stat(folder + "/" + name, &st)
            #expect(st.st_nlink == 1)
            #expect(!["Trip/IMG_1.jpg", "Trip/IMG_3.jpg"].contains { daemon.library.inode(daemon.library.path($0)) == UInt64(st.st_ino) })
        }

        // A running app sees a selection edit.
        let marker = user.home + "/.var/app/\(app)/started"
        let waiting = try user.startApp(app, """
            P=$(xdg-user-dir PICTURES); touch ~/.var/app/\(app)/started
            for ((i = 0; i < 600; i++)); do [ "$(ls -A "$P" | wc -l)" = 3 ] && { echo seen; exit 0; }; sleep 0.1; done; exit 1
            """, output: user.home + "/running-app.log")
        try await waitUntil("the running app to start", while: waiting) { FileManager.default.fileExists(atPath: marker) }
        try await daemon.ok("select", app, "Trip/IMG_2.jpg")
        #expect(await waiting.exited(timeout: 90) == 0, "\(waiting.ending)")
        user.stopSessionHelpers()
        let shared = entries(folder)
        #expect(shared.count == 3)

        // Everything an app can do to its Pictures folder: chmod (its entries are read-only, but its own), append,
        // truncate, rename, delete, and save a photo. The photo is saved in two writes with the deletion between
        // them, so the daemon looks at the folder while it is half written: it must wait for the app to close it.
        try await FileManager.default.copyItem(atPath: try Self.realJPEG(in: user.home, name: "saved-src.jpg"), toPath: user.home + "/.var/app/\(app)/saved-src.jpg")
        try user.owner.own(user.home + "/.var/app/\(app)/saved-src.jpg")
        let (a, b, c) = (shared[0], shared[1], shared[2])
        let tampered = try await user.runApp(app, """
            cd "$(xdg-user-dir PICTURES)" && chmod 666 \(a) \(b) \(c) && echo appended >> \(a) && truncate -s 0 \(b) && mv \(c) renamed.jpg \
              && { head -c 200 ~/.var/app/\(app)/saved-src.jpg; rm \(b); sleep 1.5; tail -c +201 ~/.var/app/\(app)/saved-src.jpg; } > saved.jpg \
              && echo done
            """)
        #expect(tampered.contains("done"), "\(tampered)")
        expectOriginalsIntact(daemon, originals)
        // The folder comes back to the selection, and what the app saved joins the library and its selection.
        do {
            try await waitUntil("the Pictures folder to hold the selection and the saved photo again") {
                FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(app)/saved.jpg")) && entries(folder).count == 4
                    && Set(shared).isSubset(of: entries(folder)) && !entries(folder).contains("renamed.jpg")
            }
        } catch {
            // What it holds instead, and what the daemon did: the look that tells a lost event from a slow one.
            let imported = FileManager.default.fileExists(atPath: daemon.library.path("Imported/\(app)/saved.jpg"))
            Issue.record("the folder holds \(entries(folder)) (the selection: \(shared)); Imported/\(app)/saved.jpg \(imported ? "is" : "is not") there; the inboxes hold \(entries(daemon.library.state + "/inboxes")); the daemon's log ends: \(daemon.log.suffix(4000))")
            throw error
        }
        let selectedAll = ["Trip/IMG_1.jpg", "Trip/IMG_2.jpg", "Trip/IMG_3.jpg"].map { originals[$0]! }
        let now = contents(folder)
        for bytes in selectedAll { #expect(now.contains(bytes)) }
        #expect(FileManager.default.contents(atPath: daemon.library.path("Imported/\(app)/saved.jpg"))
                == FileManager.default.contents(atPath: user.home + "/saved-src.jpg"))
        expectOriginalsIntact(daemon, originals)
        #expect(!now.contains(originals["Private/secret.jpg"]!))

        // None: nothing.
        try await daemon.ok("authorize", app, "denied")
        #expect(entries(folder).isEmpty)
        seen = try await user.runApp(app, "ls -A \"$(xdg-user-dir PICTURES)\" | wc -l")
        #expect(seen.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(seen)")

        // Full Access: the app's own permission, and the person's override as they wrote it.
        try await daemon.ok("authorize", app, "authorized")
        #expect(try String(contentsOfFile: overridePath, encoding: .utf8) == Self.personsOverride)
        seen = try await user.runApp(app, "ls -A \"$(xdg-user-dir PICTURES)\"")
        #expect(seen.split(separator: "\n").sorted() == ["Imported", "Private", "Trip"], "\(seen)")
        #expect(entries(folder).isEmpty, "Full Access copies nothing into the app's folder")

        // Removing the app leaves the person's override as it was.
        try await daemon.ok("authorize", app, "limited")
        try await daemon.ok("app", "remove", app)
        #expect(try String(contentsOfFile: overridePath, encoding: .utf8) == Self.personsOverride)
        expectOriginalsIntact(daemon, originals)
    }

    @Test("installed apps are listed by their .desktop name and icon with what they reach; authorize takes one by its ID; one whose permission is its whole home is not limited until the person can confirm; one not installed is refused")
    func listedAndBroad() async throws {
        let (daemon, user, _) = try await started()
        defer { daemon.stopLater(); user.stopSessionHelpers() }
        let installed = try await JSONDecoder().decode([InstalledAppInfo].self, from: Data(try daemon.ok("apps", "--installed", "--json").utf8))
        let hello = try #require(installed.first { $0.app == Self.hello })
        #expect(hello.name == "Hello" && hello.installation == "user" && !hello.registered && !hello.running)
        #expect(hello.through == ["xdg-pictures"] && hello.broad.isEmpty && hello.reach == "Sees all your photos — its Flatpak permission (xdg-pictures).")
        #expect(hello.icon.map { FileManager.default.fileExists(atPath: $0) && $0.hasSuffix("/\(Self.hello).png") } == true, "\(hello)")
        let home = try #require(installed.first { $0.app == "org.test.Home" })
        #expect(home.through == ["home"] && home.broad == ["home"])
        let listing = try await daemon.ok("apps")
        #expect(listing.contains("Installed Flatpak apps that see your photos") && listing.contains("Hello  org.test.Hello  Sees all your photos"), "\(listing)")

        // Chosen by its ID, as listed: registered on the way, and told when it takes effect.
        let denied = try await daemon.ok("authorize", Self.hello, "denied")
        #expect(denied.contains("Hello finds no photos in its Pictures folder when Hello next starts."), "\(denied)")
        let registered = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(registered.first { $0.app == Self.hello }?.flatpak == true)
        #expect(try String(contentsOfFile: user.overrides + "/" + Self.hello, encoding: .utf8).contains("persistent=lib;"))

        // doctor: what holds, and what the person's own 'flatpak override' undid, until the access is chosen again.
        var doctor = try await daemon.ctl("doctor")
        #expect(doctor.stdout.contains("pass  flatpak-apps: 1 Flatpak app finds only what you chose in its Pictures folder (Flatpak 1."), "\(doctor.stdout)")
        try await user.ok(["/usr/bin/flatpak", "override", "--user", "--filesystem=xdg-pictures", Self.hello])
        doctor = try await daemon.ctl("doctor")
        #expect(doctor.status != 0)
        #expect(doctor.stdout.contains("FAIL  flatpak-apps: Hello (org.test.Hello): its permissions reach your Pictures folder again (xdg-pictures)"), "\(doctor.stdout)")
        try await daemon.ok("authorize", Self.hello, "denied")
        doctor = try await daemon.ctl("doctor")
        #expect(doctor.stdout.contains("pass  flatpak-apps:"), "\(doctor.stdout)")
        let seen = try await user.runApp(Self.hello, "ls -A \"$(xdg-user-dir PICTURES)\" | wc -l")
        #expect(seen.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(seen)")

        try await daemon.ok("app", "add", "org.test.Home", "--flatpak")
        let refused = try await daemon.ctl("authorize", "org.test.Home", "limited")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("'home'") && refused.stderr.contains("--confirm") && refused.stderr.contains("Full Access"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: user.overrides + "/org.test.Home"))
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(apps.first { $0.app == "org.test.Home" }?.readWrite == "notDetermined")

        // Confirmed: its home is taken away, the everyday folders given back, and it finds its selection where it looks.
        try user.writeFile("Downloads/list.txt", "groceries")
        try user.writeFile("notes.txt", "private")
        try await daemon.ok("authorize", "org.test.Home", "limited", "--confirm")
        try await daemon.ok("select", "org.test.Home", "Trip/IMG_1.jpg")
        #expect(try String(contentsOfFile: user.overrides + "/org.test.Home", encoding: .utf8)
                == "[Context]\nfilesystems=!xdg-pictures;!home;xdg-desktop;xdg-documents;xdg-download;xdg-music;xdg-videos;\npersistent=lib;\n")
        let inside = try await user.runApp("org.test.Home", """
            ls -A "$(xdg-user-dir PICTURES)" | wc -l; cat ~/Downloads/list.txt; echo; test -e ~/notes.txt && echo notes-visible || echo notes-hidden
            """)
        #expect(inside.split(separator: "\n") == ["1", "groceries", "notes-hidden"], "\(inside)")
        // A later change keeps what was confirmed; Full Access gives the home back and leaves no file (none of its lines were the person's).
        try await daemon.ok("authorize", "org.test.Home", "denied")
        #expect(try String(contentsOfFile: user.overrides + "/org.test.Home", encoding: .utf8).contains("!home;"))
        try await daemon.ok("authorize", "org.test.Home", "authorized")
        #expect(!FileManager.default.fileExists(atPath: user.overrides + "/org.test.Home"))

        let missing = try await daemon.ctl("app", "add", "org.test.Missing", "--flatpak")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("No Flatpak app org.test.Missing is installed"), "\(missing.stderr)")
    }

    @Test("the page lists an installed Flatpak app by its .desktop name and icon with what it reaches; Selected Photos there limits it from its next start")
    func onThePage() async throws {
        let (daemon, user, originals) = try await started()
        defer { daemon.stopLater(); user.stopSessionHelpers() }
        let page = try await PageSession(daemon)
        let shots = daemon.library.root + "/shots"
        let result = try await page.drive(["access", page.url, Self.hello, "Selected Photos", "--shots", shots])
        let before = result["before"] as? [String: Any] ?? [:]
        #expect(before["name"] as? String == "Hello", "\(result)")
        #expect(before["identity"] as? String == "\(Self.hello) · Flatpak app", "\(result)")
        #expect(before["access"] as? String == "Sees all your photos — its Flatpak permission (xdg-pictures).", "\(result)")
        #expect((before["iconWidth"] as? Int ?? 0) > 0, "the icon drew: \(result)")
        #expect(before["menu"] as? String == "Access for Hello", "\(result)")
        #expect((before["notes"] as? [String] ?? []).contains("A change takes effect when Hello next starts."), "\(result)")
        #expect((result["notice"] as? String)?.contains("Hello: access changed. A change takes effect when Hello next starts.") == true, "\(result)")
        #expect(result["after"] as? String == "Selected Photos (0)", "\(result)")
        #expect(FileManager.default.fileExists(atPath: shots + "/apps.png") && FileManager.default.fileExists(atPath: shots + "/apps-after.png"))
        // An app that sees the whole home: the page asks before it takes that away, and does so on yes.
        let home = try await page.drive(["access", try page.freshLink(), "org.test.Home", "None", "--confirm", "--shots", shots + "/home"])
        #expect(home["question"] as? String == "Limiting Home takes away your home folder (home): it keeps Desktop, Documents, Downloads, Music and Videos, and its own data. Go on?", "\(home)")
        #expect(home["after"] as? String == "None", "\(home)")
        #expect(try String(contentsOfFile: user.overrides + "/org.test.Home", encoding: .utf8).contains("!home;"))
        // Any other app with a .desktop file is shown by its name and icon too (here the owner's own, in ~/.local/share).
        try await daemon.ok("app", "add", "org.example.Viewer", "--uid", "4242")
        try user.writeFile(".local/share/applications/org.example.Viewer.desktop", "[Desktop Entry]\nType=Application\nName=Viewer\nIcon=org.example.Viewer\nExec=viewer\n")
        try user.writeFile(".local/share/icons/hicolor/64x64/apps/org.example.Viewer.png", "")
        _ = try await run("/bin/cp", ["/usr/libexec/installed-tests/Flatpak/org.test.Hello.png", user.home + "/.local/share/icons/hicolor/64x64/apps/org.example.Viewer.png"])
        let viewer = try await page.drive(["access", try page.freshLink(), "org.example.Viewer", "None", "--shots", shots + "/viewer"])
        let shown = viewer["before"] as? [String: Any] ?? [:]
        #expect(shown["name"] as? String == "Viewer" && shown["identity"] as? String == "org.example.Viewer · uid 4242", "\(viewer)")
        #expect((shown["iconWidth"] as? Int ?? 0) > 0, "\(viewer)")
        if let keep = ProcessInfo.processInfo.environment["PHOTOLIBD_KEEP_SHOTS"] {
            _ = try? await run("/bin/cp", ["-r", shots, keep])
        }

        // What the person chose is what the app finds at its next start.
        try await daemon.ok("select", Self.hello, "Trip/IMG_2.jpg")
        let seen = try await user.runApp(Self.hello, "ls -A \"$(xdg-user-dir PICTURES)\" | wc -l; cat \"$(xdg-user-dir PICTURES)\"/* | wc -c")
        #expect(seen.split(separator: "\n") == ["1", Substring(String(originals["Trip/IMG_2.jpg"]!.count))], "\(seen)")
        #expect(contents(user.picturesFolder(Self.hello)) == [originals["Trip/IMG_2.jpg"]!])
        // On a filesystem that cannot clone (ext4, as /tmp is here), the page can say what the copies take.
        let installed = try await JSONDecoder().decode([InstalledAppInfo].self, from: Data(try daemon.ok("apps", "--installed", "--json").utf8))
        let filesystem = try await run("/usr/bin/stat", ["-f", "-c", "%T", user.home]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let copies = installed.first { $0.app == Self.hello }?.copyBytes
        if filesystem.hasPrefix("ext") {
            #expect(copies == Int64(originals["Trip/IMG_2.jpg"]!.count), "\(installed)")
        } else {
            #expect(copies == nil || copies == Int64(originals["Trip/IMG_2.jpg"]!.count), "\(filesystem): \(installed)")
        }
        // What it opened there is in the access report, as any view's opens are.
        try await waitUntil("Hello's open in the access report") {
            let report = try await JSONDecoder().decode(ReportResult.self, from: Data(try daemon.ok("report", "--json").utf8))
            return report.entries.contains { $0.app == Self.hello && $0.how == "open" && $0.path == "Trip/IMG_2.jpg" }
        }
    }
}
