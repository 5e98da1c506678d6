import Foundation
import Glibc
import PhotoLibProtocol
import TestSupport
import Testing

/// Issue 52 with a real Flatpak: the library on sshfs (an sshd of the test's own, every photo written
/// on the server side), the views on the local disk, where no link can cross. A limited app's Pictures
/// folder is its view of references served through FUSE: read from the server, copied nowhere. The test
/// process (root) looks into neither mount: every look is the app's own, or the owner's, with a deadline.
extension FlatpakTests {
    @Test("a library on sshfs with the views on the local disk: a limited app's Pictures folder is its view through FUSE, each photo read from the server, nothing copied to the local disk; a rename on the server and a deselection reach it (photolibd-viewfs as its child, and through its socket unit, handed the library)",
          arguments: [false, true])
    func networkLibraryThroughFUSE(throughSocketUnit: Bool) async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        let nas = try await SSHFSServer(owner: owner, mountingAt: library.library)
        // Unmounted after the daemon's stop and before the library's removal (the teardown runs in turn).
        defer { nas.unmountLater() }
        for name in ["Trip/IMG_1.jpg", "Trip/IMG_2.jpg", "Trip/IMG_3.jpg"] { try nas.write(name, contents: "the photo \(name), on the server") }
        let user = try await FlatpakUser(library, installing: [Self.hello])
        let app = Self.hello
        RunRecord.mounted(user.picturesFolder(app))
        // Under no_new_privs, as under its systemd unit, the daemon cannot mount: photolibd-viewfs's socket
        // unit (systemd-socket-activate --inetd here) does, handed the view and the library as descriptors.
        var activator: SpawnedProcess?
        let runtime = "/run/photolibd-test-viewfs-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        if throughSocketUnit {
            mkdir(runtime, 0o700)
            RunRecord.madeDirectory(runtime)
            try owner.own(runtime)
            let command = owner.command("/usr/bin/systemd-socket-activate")
                + ["--inetd", "--accept", "--listen=" + runtime + "/photolibd-viewfs.sock", try ReachableCopies.binary("photolibd-viewfs"), "--from-socket"]
            activator = try SpawnedProcess(command[0], Array(command.dropFirst()), output: user.home + "/viewfs-socket.log")
            try await waitUntil("the socket unit's socket") { FileManager.default.fileExists(atPath: runtime + "/photolibd-viewfs.sock") }
        }
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", try library.writeConfiguration("fuse_views = true\nverify_interval = \(SSHFSServer.cacheSeconds + 1)\n")],
                               environment: ["XDG_CONFIG_HOME": user.home + "/.config", "XDG_DATA_HOME": user.home + "/.local/share"],
                               launcher: throughSocketUnit ? ["/usr/bin/env", "XDG_RUNTIME_DIR=" + runtime, "/usr/bin/setpriv", "--no-new-privs", "--"] : [])
        defer {
            daemon.stopLater()
            user.stopSessionHelpers()
            _ = activator?.signal(SIGTERM)  // released, it is reaped by the teardown
            if throughSocketUnit { _ = try? runBlocking("/bin/rm", ["-rf", runtime]) }
        }
        let status = try await daemon.ok("status")
        #expect(status.contains("entries:  references") && status.contains("another mount"), "\(status)")

        try await daemon.ok("app", "add", app, "--flatpak")
        try await daemon.ok("authorize", app, "limited")
        try await daemon.ok("select", app, "Trip/IMG_1.jpg", "Trip/IMG_3.jpg")
        let listed = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(listed.first { $0.app == app }?.entries == AppEntries(form: "fuse"), "\(listed) \(daemon.log.suffix(2000))")

        // Exactly the selection, read from the server, read-only.
        let read = #"P=$(xdg-user-dir PICTURES); ls -A "$P" | wc -l; for F in "$P"/*; do cat "$F"; echo; done | sort; stat -c '%h %a' "$P"/* | sort -u"#
        let lines = try await user.runApp(app, read).split(separator: "\n").map(String.init)
        #expect(lines == ["2", "the photo Trip/IMG_1.jpg, on the server", "the photo Trip/IMG_3.jpg, on the server", "1 444"], "\(lines)")
        // Nothing of the library on the local disk: the view holds references (symbolic links), no file.
        let held = try viewFiles(library.views)
        #expect(held.files.isEmpty && held.references.sorted() == ["/Trip/IMG_1.jpg", "/Trip/IMG_3.jpg"], "\(held)")

        // Renamed on the server: the photo keeps its ID, its reference follows, the app reads it still.
        let ids = try await daemon.appIDs(app)
        #expect(rename(nas.export + "/Trip/IMG_1.jpg", nas.export + "/Trip/renamed.jpg") == 0)
        try await waitUntil("the view's reference to follow the rename on the server", timeout: 60) {
            try viewFiles(library.views).references.contains("/Trip/renamed.jpg")
        }
        #expect(try await daemon.appIDs(app)["Trip/renamed.jpg"] == ids["Trip/IMG_1.jpg"])
        let after = try await user.runApp(app, read).split(separator: "\n").map(String.init)
        #expect(after == ["2", "the photo Trip/IMG_1.jpg, on the server", "the photo Trip/IMG_3.jpg, on the server", "1 444"], "\(after)")

        // Deselected: gone from the folder at once.
        try await daemon.ok("deselect", app, "Trip/IMG_3.jpg")
        let left = try await user.runApp(app, #"ls -A "$(xdg-user-dir PICTURES)" | wc -l"#)
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(left)")
        #expect(try viewFiles(library.views).references == ["/Trip/renamed.jpg"])
    }

    /// What the views directory holds below each view: regular files (anything but photolibd's own
    /// bookkeeping) and the targets of references.
    func viewFiles(_ views: String) throws -> (files: [String], references: [String]) {
        var files: [String] = [], references: [String] = []
        let walker = FileManager.default.enumerator(atPath: views)
        while let relative = walker?.nextObject() as? String {
            let path = views + "/" + relative
            // The marker, the staging and derivatives directories, and a reference being placed under a hidden name.
            if relative.hasPrefix(".") || (relative as NSString).lastPathComponent.hasPrefix(".") { continue }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
                if FileManager.default.fileExists(atPath: path) { throw TestFailure("cannot look at \(path)") }
                continue  // renamed or removed since it was listed: the daemon is changing the view
            }
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?: references.append(try FileManager.default.destinationOfSymbolicLink(atPath: path))
            case .typeRegular?: files.append(relative)
            default: continue
            }
        }
        return (files, references)
    }
}
