import Foundation
import Glibc
import PhotoLibProtocol
import TestSupport
import Testing

/// Issue 51 with a real Flatpak on ext4 (which cannot clone): a limited app's Pictures folder is its
/// view served read-only through FUSE (photolibd-viewfs), copying nothing. The test process (root)
/// never looks into the mount: a FUSE mount refuses other uids, and a hung one would block it. Every
/// look is the app's own, through `flatpak run`, with a deadline.
extension FlatpakTests {
    @Test("on ext4 a limited app's Pictures folder is its view through FUSE: exactly its selection, copied nowhere, nothing in it writable, a save taken in, edits live, nothing while photolibd is stopped or killed, back at its start")
    func selectedPhotosThroughFUSE() async throws {
        let (daemon, user, originals) = try await started(fuse: true)
        let app = Self.hello
        RunRecord.mounted(user.picturesFolder(app))  // a run stopped midway unmounts it
        defer { daemon.stopLater(); user.stopSessionHelpers() }
        let restart = { () async throws in
            try await daemon.start(extraArguments: ["--config", daemon.library.root + "/photolibd.toml"],
                                   environment: ["XDG_CONFIG_HOME": user.home + "/.config", "XDG_DATA_HOME": user.home + "/.local/share"])
        }

        try await daemon.ok("app", "add", app, "--flatpak")
        try await daemon.ok("authorize", app, "limited")
        try await daemon.ok("select", app, "Trip/IMG_1.jpg", "Trip/IMG_3.jpg")
        #expect(try await daemon.ok("status").contains("fuse:     available"))
        let listed = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(listed.first { $0.app == app }?.entries == AppEntries(form: "fuse"), "\(listed)")
        #expect(daemon.log.contains("is its view through FUSE"), "\(daemon.log.suffix(2000))")

        // Exactly the selection, by content; read-only, one link each; and the view's entries are links
        // to the originals (in the views, which only the owner enters): nothing was copied.
        let script = #"P=$(xdg-user-dir PICTURES); ls -A "$P" | sort; stat -c '%h %a' "$P"/* | sort -u; cat "$P"/* | wc -c"#
        let lines = try await user.runApp(app, script).split(separator: "\n").map(String.init)
        let selectedBytes = [originals["Trip/IMG_1.jpg"]!, originals["Trip/IMG_3.jpg"]!].map(\.count).reduce(0, +)
        #expect(lines.count == 4 && lines[2] == "1 444" && lines[3] == String(selectedBytes), "\(lines)")
        let names = Array(lines.prefix(2))
        for selected in ["Trip/IMG_1.jpg", "Trip/IMG_3.jpg"] {
            #expect(daemon.library.linkCount(daemon.library.path(selected)) == 2, "\(selected) is linked once more, by the view, never copied")
        }
        #expect(daemon.library.linkCount(daemon.library.path("Trip/IMG_2.jpg")) == 1)

        // Every change to what it shows is refused, each on its own; the originals stay byte for byte.
        try await FileManager.default.copyItem(atPath: try Self.realJPEG(in: user.home, name: "saved-src.jpg"), toPath: user.home + "/.var/app/\(app)/saved-src.jpg")
        try user.owner.own(user.home + "/.var/app/\(app)/saved-src.jpg")
        let (a, b) = (names[0], names[1])
        let attempts = ["chmod 666 \(a)", "sh -c 'echo appended >> \(a)'", "truncate -s 0 \(a)", "mv \(a) renamed.jpg", "rm \(b)",
                        "touch -d 2001-01-01 \(a)", "ln \(a) hard.jpg", "ln -s \(a) soft.jpg", "mkdir album", "cp saved.jpg \(b)"]
        let tried = try await user.runApp(app, #"cd "$(xdg-user-dir PICTURES)" || exit 1; "#
            + attempts.map { "if \($0) 2>/dev/null; then echo \"allowed: \($0.replacingOccurrences(of: "'", with: ""))\"; fi; " }.joined()
            + #"ls -A | sort; echo tried"#)
        #expect(!tried.contains("allowed") && tried.hasSuffix("tried\n"), "\(tried)")
        #expect(tried.split(separator: "\n").dropLast().map(String.init) == names, "\(tried)")
        expectOriginalsIntact(daemon, originals)

        // A photo it saves goes to its inbox, joins the library, its selection and so its folder.
        let saved = try await user.runApp(app, #"cp ~/.var/app/org.test.Hello/saved-src.jpg "$(xdg-user-dir PICTURES)/saved.jpg" && echo saved"#)
        #expect(saved.contains("saved"), "\(saved)")
        try await waitUntil("the saved photo to be taken into the library") {
            FileManager.default.contents(atPath: daemon.library.path("Imported/\(app)/saved.jpg"))
                == FileManager.default.contents(atPath: user.home + "/saved-src.jpg")
        }

        // A running app sees a selection edit and a revocation at once: 3 (with the save), 4, then 3.
        let marker = user.home + "/.var/app/\(app)/started"
        let waiting = try user.startApp(app, """
            P=$(xdg-user-dir PICTURES); n() { ls -A "$P" | wc -l; }
            for ((i = 0; i < 600; i++)); do [ "$(n)" = 3 ] && break; sleep 0.1; done; touch ~/.var/app/\(app)/started
            for ((i = 0; i < 600; i++)); do [ "$(n)" = 4 ] && break; sleep 0.1; done; [ "$(n)" = 4 ] || exit 2; touch ~/.var/app/\(app)/four
            for ((i = 0; i < 600; i++)); do [ "$(n)" = 3 ] && { echo seen; exit 0; }; sleep 0.1; done; exit 3
            """, output: user.home + "/running-app.log")
        try await waitUntil("the running app to see its three photos", while: waiting) { FileManager.default.fileExists(atPath: marker) }
        try await daemon.ok("select", app, "Trip/IMG_2.jpg")
        try await waitUntil("the running app to see the fourth", while: waiting) {
            FileManager.default.fileExists(atPath: user.home + "/.var/app/\(app)/four")
        }
        try await daemon.ok("deselect", app, "Trip/IMG_1.jpg")
        #expect(await waiting.exited(timeout: 90) == 0, "\(waiting.ending)")
        user.stopSessionHelpers()

        // A photo the app holds open when it is revoked reads no more: the kernel has dropped what it
        // cached of it, and the server refuses a read of a name gone from the view. (The shell's own
        // `read`: read(2) alone, no stat of the descriptor first, as cat would.)
        let holding = try user.startApp(app, """
            P=$(xdg-user-dir PICTURES); for F in "$P"/*; do N=${F##*/}; break; done; exec 3< "$P/$N"
            read -r -n 10 -u 3 _ 2>/dev/null; echo "$N" > ~/.var/app/\(app)/holding  # a few bytes read: the rest is still to come
            for ((i = 0; i < 600; i++)); do [ -e ~/.var/app/\(app)/revoked ] && break; sleep 0.1; done
            read -r -N 100000000 -u 3 _ 2> /tmp/read-error; echo "read: $(cat /tmp/read-error)"
            """, output: user.home + "/holding-app.log")
        let held = user.home + "/.var/app/\(app)/holding"
        try await waitUntil("the app to hold a photo open", while: holding) { FileManager.default.fileExists(atPath: held) }
        let heldName = try String(contentsOfFile: held, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let heldPath = try #require(try await daemon.appIDs(app).first { heldName.hasPrefix($0.value) }?.key, "\(heldName)")
        try await daemon.ok("deselect", app, heldPath)
        _ = FileManager.default.createFile(atPath: user.home + "/.var/app/\(app)/revoked", contents: nil)
        #expect(await holding.exited(timeout: 90) == 0, "\(holding.ending)")
        #expect(holding.printed.contains("read: ") && holding.printed.contains("read error: 3: No such file or directory"), "\(holding.printed)")
        try await daemon.ok("select", app, heldPath)
        user.stopSessionHelpers()

        // Stopped: the folder shows nothing (unmounted; what lies beneath was emptied before the mount).
        await daemon.stop()
        let count = #"ls -A "$(xdg-user-dir PICTURES)" 2>/dev/null | wc -l"#
        #expect(try await user.runApp(app, count).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        try await restart()
        #expect(try await user.runApp(app, count).trimmingCharacters(in: .whitespacesAndNewlines) == "3")

        // Killed: the server sees its channel close and its mount goes with it; the next start mounts it again.
        await daemon.kill()
        try await waitUntil("the killed daemon's FUSE view to be unmounted") {
            !viewMounted(on: user.picturesFolder(app))
        }
        #expect(try await user.runApp(app, count).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        try await restart()
        #expect(try await user.runApp(app, count).trimmingCharacters(in: .whitespacesAndNewlines) == "3")

        // Killed with its server and the server's unmounter, as systemd kills a crashed unit's whole
        // cgroup: the mount is left, refusing every look; the next start unmounts it and mounts anew.
        let owner = String(user.owner.uid)
        _ = try await run("/usr/bin/pkill", ["-STOP", "-u", owner, "photolibd-view"])
        await daemon.kill()
        _ = try await run("/usr/bin/pkill", ["-KILL", "-u", owner, "photolibd-view"])
        #expect(viewMounted(on: user.picturesFolder(app)),
                "the killed server's mount is left behind")
        try await restart()
        #expect(daemon.log.contains("Unmounted a FUSE view left by a photolibd that did not stop cleanly"), "\(daemon.log.suffix(2000))")
        #expect(try await user.runApp(app, count).trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        expectOriginalsIntact(daemon, originals)

        // No longer limited: unmounted, and the folder is the app's own again (empty of photolibd's).
        try await daemon.ok("authorize", app, "denied")
        #expect(!viewMounted(on: user.picturesFolder(app)))
        #expect(try await user.runApp(app, count).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test("a daemon with no_new_privs, as under its systemd unit, has the view mounted by photolibd-viewfs's socket unit (systemd-socket-activate --inetd here), handing it the directories: the same folder, read-only, gone when photolibd stops")
    func mountedThroughTheSocketUnit() async throws {
        var activator: SpawnedProcess?
        let runtime = "/run/photolibd-test-viewfs-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        let (daemon, user, originals) = try await started(
            fuse: true, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + runtime, "/usr/bin/setpriv", "--no-new-privs", "--"]) { user in
            // The socket unit: an instance of photolibd-viewfs --from-socket per connection, as the owner.
            mkdir(runtime, 0o700)
            RunRecord.madeDirectory(runtime)
            try user.owner.own(runtime)
            let command = user.owner.command("/usr/bin/systemd-socket-activate")
                + ["--inetd", "--accept", "--listen=" + runtime + "/photolibd-viewfs.sock", try ReachableCopies.binary("photolibd-viewfs"), "--from-socket"]
            activator = try SpawnedProcess(command[0], Array(command.dropFirst()), output: user.home + "/viewfs-socket.log")
            try await waitUntil("the socket unit's socket") { FileManager.default.fileExists(atPath: runtime + "/photolibd-viewfs.sock") }
        }
        let app = Self.hello
        RunRecord.mounted(user.picturesFolder(app))
        defer {
            daemon.stopLater()
            user.stopSessionHelpers()
            _ = activator?.signal(SIGTERM)  // released, it is reaped by the teardown
            _ = try? runBlocking("/bin/rm", ["-rf", runtime])
        }
        try await daemon.ok("app", "add", app, "--flatpak")
        try await daemon.ok("authorize", app, "limited")
        try await daemon.ok("select", app, "Trip/IMG_1.jpg", "Trip/IMG_3.jpg")
        #expect(try await daemon.ok("status").contains("fuse:     available"))
        let listed = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(listed.first { $0.app == app }?.entries == AppEntries(form: "fuse"), "\(listed) \(daemon.log.suffix(2000))")
        let script = #"P=$(xdg-user-dir PICTURES); ls -A "$P" | wc -l; stat -c '%h %a' "$P"/* | sort -u; { echo x >> "$P/$(ls "$P" | head -1)"; } 2>/dev/null || echo refused"#
        let lines = try await user.runApp(app, script).split(separator: "\n").map(String.init)
        #expect(lines == ["2", "1 444", "refused"], "\(lines)")
        expectOriginalsIntact(daemon, originals)

        // Stopped: its connection closes, and the instance unmounts the folder.
        await daemon.stop()
        try await waitUntil("the socket unit's view to be unmounted") {
            !viewMounted(on: user.picturesFolder(app))
        }
        #expect(try await user.runApp(app, #"ls -A "$(xdg-user-dir PICTURES)" 2>/dev/null | wc -l"#)
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// Whether a view of photolibd's is mounted on `folder`, by the mount table alone (the mount itself
    /// is never looked at); another test's or a crash run's views elsewhere do not count.
    func viewMounted(on folder: String) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            // The kernel writes a space, tab, newline or backslash in a path as \ooo.
            let escaped = folder.replacingOccurrences(of: "\\", with: "\\134").replacingOccurrences(of: " ", with: "\\040")
                .replacingOccurrences(of: "\t", with: "\\011").replacingOccurrences(of: "\n", with: "\\012")
            return fields.count > 4 && fields[4] == Substring(escaped) && line.contains(" - fuse.photolibd-view ")
        }
    }
}
