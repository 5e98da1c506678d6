import Foundation
import Glibc
import Testing
import TestSupport

/// photolibd-viewfs, the read-only FUSE view (issue 51's first step), run as the library's owner
/// mounts it: what it shows, what it refuses, and that it goes when photolibd's end of its socket
/// closes or the server dies. The mount point is never `stat`ed by the test process itself: every
/// look goes through a command run as the owner, with a deadline.
@Suite("Views served through FUSE", .serialized)
struct ViewFileSystemTests {
    /// A view directory (as photolibd keeps one: links to originals, a staging name) and an empty
    /// folder to mount it on, both the owner's, in a directory only the owner can enter.
    final class Scene {
        let owner: TestOwner
        let root: String
        var view: String { root + "/view" }
        var mountPoint: String { root + "/Pictures" }
        var original: String { root + "/library/a.jpg" }
        var inbox: String { root + "/inbox" }

        init() async throws {
            owner = try await TestOwner()
            var template = Array("/tmp/photolibd-viewfs-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: errno \(errno)") }
            root = String(cString: made)
            RunRecord.madeDirectory(root)
            for directory in [root, root + "/library", view, view + "/Trip", mountPoint, inbox] {
                mkdir(directory, 0o700)
                try owner.own(directory)
            }
            for (path, text) in [(original, "the original photo a"), (root + "/library/b.jpg", "photo b"),
                                 (view + "/.staging-1", "a name being placed")] {
                try text.write(toFile: path, atomically: false, encoding: .utf8)
                try owner.own(path)
            }
            // The view's entries are hard links to the originals, as a link view's are.
            guard link(original, view + "/a.jpg") == 0, link(root + "/library/b.jpg", view + "/Trip/b.jpg") == 0 else {
                throw TestFailure("link: errno \(errno)")
            }
        }

        deinit {
            // Lazily, in case a failed test left it mounted: never a wait on a dead server.
            _ = try? runBlocking("/bin/umount", ["--lazy", mountPoint], timeout: 30)
            _ = try? runBlocking("/bin/rm", ["-rf", root], timeout: 60)
        }

        /// A shell command run as the owner (the uid the Flatpak app runs as), with a deadline.
        func asOwner(_ script: String) async throws -> (status: Int32, stdout: String, stderr: String) {
            let command = owner.command("/bin/sh")
            return try await run(command[0], Array(command.dropFirst()) + ["-c", script, "sh", mountPoint], timeout: 30)
        }

        var mounted: Bool {
            ((try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? "").split(separator: "\n")
                .contains { $0.split(separator: " ").dropFirst().first == Substring(mountPoint) }
        }
    }

    /// The server, started as the owner; its socket's other end is `channel`, closed to stop it.
    struct Server {
        let process: ChildProcess
        var channel: Int32

        /// With `inbox`, the app may save new photos (into the scene's inbox); with `references`, the
        /// view's entries are references into the scene's library (`--library`).
        init(_ scene: Scene, inbox: Bool = false, references: Bool = false) async throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw TestFailure("socketpair: errno \(errno)")
            }
            let command = scene.owner.command(try ReachableCopies.binary("photolibd-viewfs"))
            RunRecord.mounted(scene.mountPoint)
            process = try ChildProcess(command[0], Array(command.dropFirst()) + (references ? ["--library", scene.root + "/library"] : [])
                                           + [scene.view, scene.mountPoint] + (inbox ? [scene.inbox] : []),
                                       streams: .channel(ends[1], errors: scene.root + "/viewfs.log"))
            close(ends[1])
            channel = ends[0]
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(channel, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            // Read on a thread of its own (SO_RCVTIMEO bounds it), never on the cooperative pool.
            let greeting = try await onThread { [channel] () -> [UInt8] in
                var buffer = [UInt8](repeating: 0, count: 9)
                let count = recv(channel, &buffer, 9, Int32(MSG_WAITALL))
                return count > 0 ? Array(buffer[0..<count]) : []
            }.value
            let printed = (try? String(contentsOfFile: scene.root + "/viewfs.log", encoding: .utf8)) ?? ""
            guard String(decoding: greeting, as: UTF8.self) == "PLVIEWF1\n" else {
                throw TestFailure("photolibd-viewfs did not say it was mounted within 30 s (\(process.ending.map { "\($0)" } ?? "still running")); it printed: \(printed)")
            }
        }
    }

    @Test("the owner sees the view's photos read-only, linked once, without its staging names; nothing is written, renamed, chmodded or deleted through it")
    func readOnlyMirror() async throws {
        let scene = try await Scene()
        let server = try await Server(scene)
        defer { close(server.channel) }
        #expect(scene.mounted)
        // Mounted, it has confined itself: no new privileges, a seccomp filter (and it still serves).
        let confinement = try String(contentsOfFile: "/proc/\(server.process.pid)/status", encoding: .utf8)
        #expect(confinement.contains("Seccomp:\t2") && confinement.contains("NoNewPrivs:\t1"), "\(confinement)")
        let listing = try await scene.asOwner(#"ls -A "$1"; ls -A "$1/Trip"; cat "$1/a.jpg"; echo; stat -c '%h %A' "$1/a.jpg" "$1/Trip/b.jpg""#)
        #expect(listing.status == 0, "\(listing.stderr)")
        // Read-only whatever the original's mode (0644 here), linked once though the original has two links.
        #expect(listing.stdout == "Trip\na.jpg\nb.jpg\nthe original photo a\n1 -r--r--r--\n1 -r--r--r--\n", "\(listing.stdout)")
        // Every way a Flatpak app could change a file in its Pictures folder.
        for attempt in [#"echo changed > "$1/a.jpg""#, #"echo more >> "$1/a.jpg""#, #": > "$1/new.jpg""#, #"rm -f "$1/a.jpg""#,
                        #"mv "$1/a.jpg" "$1/renamed.jpg""#, #"chmod 666 "$1/a.jpg""#, #"truncate -s 0 "$1/Trip/b.jpg""#,
                        #"touch "$1/a.jpg""#, #"mkdir "$1/album""#, #"ln "$1/a.jpg" "$1/a2.jpg""#, #"rm -rf "$1/Trip""#] {
            let result = try await scene.asOwner(attempt)
            #expect(result.status != 0 && result.stderr.contains("Read-only file system"), "\(attempt): \(result.status) \(result.stderr)")
        }
        #expect(try String(contentsOfFile: scene.original, encoding: .utf8) == "the original photo a")
        var status = stat()
        #expect(stat(scene.original, &status) == 0 && status.st_mode & 0o777 == 0o644 && status.st_nlink == 2)
        // Only the owner's uid reaches it (no allow_other): not root, not another user.
        let byRoot = try await run("/bin/cat", [scene.mountPoint + "/a.jpg"], timeout: 30)
        #expect(byRoot.status != 0 && byRoot.stderr.contains("Permission denied"), "\(byRoot)")
    }

    @Test("a view of references (a library on a network filesystem, the views on the local disk): each entry is served as the photo it names, opened beneath the library; a reference out of it, through a symlink, or to a file others may write is refused; an edit in the library is read at the next open")
    func references() async throws {
        let scene = try await Scene()
        let library = scene.root + "/library"
        for (path, text, mode) in [(library + "/open.jpg", "writable by the group", 0o664), (scene.root + "/outside.jpg", "not in the library", 0o644)] {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            try scene.owner.own(path)
            chmod(path, mode_t(mode))
        }
        #expect(symlink("a.jpg", library + "/link.jpg") == 0)
        // The view as photolibd keeps it in `references` form: symbolic links naming paths from the library's top.
        for name in ["a.jpg", "Trip/b.jpg"] { unlink(scene.view + "/" + name) }
        for (entry, target) in [("a.jpg", "/a.jpg"), ("Trip/b.jpg", "/b.jpg"), ("escape.jpg", "/../outside.jpg"),
                                ("through-link.jpg", "/link.jpg"), ("open.jpg", "/open.jpg"), ("relative.jpg", "a.jpg")] {
            #expect(symlink(target, scene.view + "/" + entry) == 0, "\(entry): errno \(errno)")
            _ = try await run("/bin/chown", ["-h", "\(scene.owner.uid):\(scene.owner.gid)", scene.view + "/" + entry], timeout: 10)
        }
        let server = try await Server(scene, references: true)
        defer { close(server.channel) }
        let read = try await scene.asOwner(#"cat "$1/a.jpg"; echo; cat "$1/Trip/b.jpg"; echo; stat -c '%h %A %s' "$1/a.jpg""#)
        #expect(read.status == 0 && read.stdout == "the original photo a\nphoto b\n1 -r--r--r-- 20\n", "\(read)")
        for entry in ["escape.jpg", "through-link.jpg", "open.jpg", "relative.jpg"] {
            let refused = try await scene.asOwner(#"cat "$1/\#(entry)""#)
            #expect(refused.status != 0 && !refused.stdout.contains("not in the library") && !refused.stdout.contains("writable"),
                    "\(entry): \(refused)")
        }
        #expect(try await scene.asOwner(#"echo x > "$1/a.jpg""#).stderr.contains("Read-only file system"))
        // Edited in the library (a server's sync rewriting it): the next open reads the edit.
        try "the original photo a, edited".write(toFile: scene.original, atomically: false, encoding: .utf8)
        let edited = try await scene.asOwner(#"cat "$1/a.jpg""#)
        #expect(edited.stdout == "the original photo a, edited", "\(edited)")
        #expect(try String(contentsOfFile: scene.root + "/outside.jpg", encoding: .utf8) == "not in the library")
    }

    @Test("with an inbox, what the app saves at the top of its folder (at once, or written hidden and renamed, as an atomic save does) goes to its inbox; nothing the view shows can be replaced, and nothing goes deeper")
    func savesGoToTheInbox() async throws {
        let scene = try await Scene()
        let server = try await Server(scene, inbox: true)
        defer { close(server.channel) }
        let saved = try await scene.asOwner(#"printf 'a new photo' > "$1/new.jpg" && printf 'half' > "$1/.saving-x" && printf ' and more' >> "$1/.saving-x" && mv "$1/.saving-x" "$1/edited.jpg""#)
        #expect(saved.status == 0, "\(saved.stderr)")
        // Once closed (FUSE's release follows a close, a moment later) or renamed, a save has left the
        // folder for the inbox; photolibd takes it in from there, on the inbox's own events.
        func inInbox(_ name: String) -> String? { try? String(contentsOfFile: scene.inbox + "/" + name, encoding: .utf8) }
        try await waitUntil("both saves in the inbox", timeout: 30) { inInbox("new.jpg") != nil && inInbox("edited.jpg") != nil }
        #expect(inInbox("new.jpg") == "a new photo")
        #expect(inInbox("edited.jpg") == "half and more")
        try await waitUntil("the saves gone from the folder", timeout: 30) { try await scene.asOwner(#"ls -A "$1""#).stdout == "Trip\na.jpg\n" }
        // A second save of a name the inbox still holds lands beside it.
        let again = try await scene.asOwner(#"printf 'another' > "$1/new.jpg""#)
        #expect(again.status == 0, "\(again.stderr)")
        try await waitUntil("the second save beside the first", timeout: 30) { inInbox("2-new.jpg") == "another" }
        for attempt in [#"echo changed > "$1/a.jpg""#, #"printf x > "$1/.t" && mv "$1/.t" "$1/a.jpg""#, #"rm "$1/a.jpg""#,
                        #"echo x > "$1/Trip/new.jpg""#, #"mkdir "$1/Album""#, #"mv "$1/a.jpg" "$1/b.jpg""#] {
            let result = try await scene.asOwner(attempt)
            // The mount takes new files here, so the kernel refuses some of these itself, by the modes shown (EACCES).
            let refused = result.stderr.contains("Read-only file system") || result.stderr.contains("Permission denied")
            #expect(result.status != 0 && refused, "\(attempt): \(result.status) \(result.stderr)")
        }
        #expect(try String(contentsOfFile: scene.original, encoding: .utf8) == "the original photo a")
        let inbox = try FileManager.default.contentsOfDirectory(atPath: scene.inbox).sorted()
        // The refused atomic save's hidden half is the app's to remove; nothing else is left.
        #expect(inbox.filter { !$0.hasPrefix(".photolibd-viewfs-") } == ["2-new.jpg", "edited.jpg", "new.jpg"], "\(inbox)")
    }

    @Test("what the kernel caches of an entry goes when the entry changes in the view: a photo removed while the app holds it open reads no more, not even what it read before; an edited photo's next open reads the edit at once, while a reader of the old one reads it to its end, as through a link")
    func changesReachOpenFiles() async throws {
        let scene = try await Scene()
        let server = try await Server(scene)
        defer { close(server.channel) }
        // Run as the owner: the app's side in the mount, photolibd's side in the view (replaced as
        // photolibd replaces an edited photo's link: a new file renamed over the name, here with the
        // same size and times, so nothing but the file itself tells them apart).
        let script = scene.root + "/changes.py"
        try #"""
            import os, sys, time
            mount, view = sys.argv[1], sys.argv[2]
            def whole(fd):
                data = b""
                while chunk := os.read(fd, 65536):
                    data += chunk
                return data
            with open(view + "/revoked.jpg", "wb") as f:
                f.write(os.urandom(1 << 20))
            fd = os.open(mount + "/revoked.jpg", os.O_RDONLY)
            os.read(fd, 10)  # read ahead: the kernel now holds its first pages
            os.unlink(view + "/revoked.jpg")
            outcome, deadline = "still readable 5 s after it was removed", time.monotonic() + 5
            while time.monotonic() < deadline:
                try:
                    os.pread(fd, 10, 0)
                except OSError as error:
                    outcome = "cut off: " + error.strerror
                    break
                time.sleep(0.005)
            print("revoked:", outcome)
            with open(view + "/edited.jpg", "wb") as f:
                f.write(b"A" * 300000)
            whole(os.open(mount + "/edited.jpg", os.O_RDONLY))  # read once: cached
            old = os.open(mount + "/edited.jpg", os.O_RDONLY)
            start = os.read(old, 10)
            with open(view + "/.edit", "wb") as f:
                f.write(b"B" * 300000)
            times = os.stat(view + "/edited.jpg")
            os.utime(view + "/.edit", ns=(times.st_atime_ns, times.st_mtime_ns))
            os.rename(view + "/.edit", view + "/edited.jpg")
            new = whole(os.open(mount + "/edited.jpg", os.O_RDONLY))
            rest = start + whole(old)
            os.close(old)
            again = whole(os.open(mount + "/edited.jpg", os.O_RDONLY))
            seen = lambda data: "".join(sorted(set(data.decode()))) + " " + str(len(data))
            print("edited: old reader", seen(rest), "| new open", seen(new), "| after", seen(again))
            """#.write(toFile: script, atomically: false, encoding: .utf8)
        let result = try await scene.asOwner(#"python3 "\#(script)" "$1" "\#(scene.view)""#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "revoked: cut off: No such file or directory\nedited: old reader A 300000 | new open B 300000 | after B 300000\n",
                "\(result.stdout)")
        let printed = (try? String(contentsOfFile: scene.root + "/viewfs.log", encoding: .utf8)) ?? ""
        #expect(!printed.contains("photolibd-viewfs:"), "\(printed)")
    }

    @Test("a server's end takes down its own mount and no other: when photolibd has already unmounted it and a new server serves the folder, the old one's unmounter leaves the new mount alone")
    func unmountsOnlyItsOwnMount() async throws {
        let scene = try await Scene()
        let old = try await Server(scene)
        // Something of the owner's still inside the old mount keeps it (and its server) alive once
        // detached, as an app holding a photo open does; photolibd then detaches it, as a new start does.
        let holder = try ChildProcess(scene.owner.command("/bin/sh")[0], Array(scene.owner.command("/bin/sh").dropFirst())
                                      + ["-c", #"cd "$1" && exec sleep 120"#, "sh", scene.mountPoint])
        defer { _ = holder.signal(SIGKILL) }
        try await waitUntil("the holder to be inside the mount", timeout: 30) {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(holder.pid)/cwd")) == scene.mountPoint
        }
        #expect(umount2(scene.mountPoint, Int32(MNT_DETACH)) == 0, "errno \(errno)")
        let new = try await Server(scene)
        defer { close(new.channel) }
        close(old.channel)
        #expect(await old.process.exited(timeout: 30) == .exited(0), "the old server did not end when its channel closed")
        try await Task.sleep(for: .seconds(1))  // its unmounter has run by now
        #expect(scene.mounted, "the old server's unmounter took the new server's mount down")
        let listing = try await scene.asOwner(#"ls -A "$1""#)
        #expect(listing.status == 0 && listing.stdout == "Trip\na.jpg\n", "\(listing)")
    }

    @Test("closed, not open: when photolibd's end of the socket closes, or the server is killed outright, the view is unmounted and the folder shows nothing")
    func goneWithItsDaemon() async throws {
        let scene = try await Scene()
        var server = try await Server(scene)
        close(server.channel)
        server.channel = -1
        #expect(await server.process.exited(timeout: 30) == .exited(0), "the server did not end when photolibd's end closed")
        try await waitUntil("the mount to go once its server ended", timeout: 30) { !scene.mounted }
        let empty = try await scene.asOwner(#"ls -A "$1""#)
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty)")

        // Killed, as a crash would end it: its unmounter (a process of its own, waiting for the server's
        // end) takes the mount down, where libfuse 3.14's auto_unmount does nothing without allow_other.
        server = try await Server(scene)
        defer { close(server.channel) }
        #expect(scene.mounted)
        server.process.signal(SIGKILL)
        #expect(await server.process.exited(timeout: 30) == .killed(signal: SIGKILL))
        try await waitUntil("the mount to go after its server was killed", timeout: 30) { !scene.mounted }
        let after = try await scene.asOwner(#"ls -A "$1""#)
        #expect(after.status == 0 && after.stdout.isEmpty, "\(after)")
    }
}
