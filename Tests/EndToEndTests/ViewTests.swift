import Foundation
import Glibc
import Testing

/// A person's view of photolibd: grant, select, edit the library, and find exactly the right hardlinks.
@Suite("Views follow selections and the library", .serialized)
struct ViewTests {
    let app = "org.example.Viewer"

    func started(_ setUp: (TestLibrary) throws -> Void = { _ in }) async throws -> RunningDaemon {
        let library = try TestLibrary()
        try setUp(library)
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        return daemon
    }

    @Test("a selection gives exactly those hardlinks, on the originals' inodes")
    func selectionGivesExactHardlinks() async throws {
        let daemon = try await started { lib in
            try lib.makeDirectory(lib.path("Trips/2024"))
            for i in 1...5 { try lib.write("Trips/2024/IMG_\(i).jpg", contents: "photo \(i)") }
            try lib.write("Home/clip.mov")
        }
        let lib = daemon.library
        try await daemon.addApp(app, "limited", uid: 4242)
        let assets = try await daemon.assets()
        let shown = try await daemon.appIDs(app)  // the app's own IDs name its entries
        let chosen = ["Trips/2024/IMG_2.jpg", "Trips/2024/IMG_4.jpg"]
        try await daemon.ok("select", app, assets[chosen[0]]!, chosen[1])  // by ID and by path
        let expected = Set(chosen.map { shown[$0]! + ".jpg" })
        #expect(await Set(lib.entries(daemon.view(app)).map { String(decoding: $0, as: UTF8.self) }) == expected)
        for path in chosen {
            #expect(await lib.inode(daemon.view(app) + "/" + shown[path]! + ".jpg") == lib.inode(lib.path(path)))
        }
        // Another app sees the same photo under an ID of its own: neither the first app's nor the library's.
        try await daemon.addApp("org.example.Other", "limited", uid: 4243)
        try await daemon.ok("select", "org.example.Other", chosen[0])
        let other = try #require(try await daemon.appIDs("org.example.Other")[chosen[0]])
        #expect(await Set(lib.entries(daemon.view("org.example.Other")).map { String(decoding: $0, as: UTF8.self) }) == [other + ".jpg"])
        #expect(other != shown[chosen[0]] && other != assets[chosen[0]] && shown[chosen[0]] != assets[chosen[0]])
        #expect(await lib.inode(daemon.view("org.example.Other") + "/" + other + ".jpg") == lib.inode(lib.path(chosen[0])))
        // Denying empties the view at once; a new limited grant restores the same names.
        try await daemon.ok("authorize", app, "denied")
        #expect(await lib.entries(daemon.view(app)).isEmpty)
        try await daemon.ok("authorize", app, "limited")
        #expect(await Set(lib.entries(daemon.view(app)).map { String(decoding: $0, as: UTF8.self) }) == expected)
        try await daemon.ok("deselect", app, chosen[0])
        #expect(await Set(lib.entries(daemon.view(app)).map { String(decoding: $0, as: UTF8.self) }) == [shown[chosen[1]]! + ".jpg"])
    }

    @Test("an album grant is live: a photo added to the album later joins the view")
    func albumGrantPicksUpLaterFiles() async throws {
        let daemon = try await started { lib in
            try lib.makeDirectory(lib.path("Family"))
            try lib.write("Family/a.jpg")
            try lib.write("Other/b.jpg")
        }
        let lib = daemon.library
        try await daemon.addApp(app, "limited", uid: 4242)
        try await daemon.ok("select", app, "--album", "Family")
        #expect(await lib.entries(daemon.view(app)).count == 1)
        try lib.write("Family/later.jpg")
        try lib.makeDirectory(lib.path("Family/Sub"))
        try lib.write("Family/Sub/deeper.png")
        try await waitUntil("the later photos to join the view") { await lib.entries(daemon.view(app)).count == 3 }
        let ids = try await daemon.appIDs(app)
        let names = await Set(lib.entries(daemon.view(app)).map { String(decoding: $0, as: UTF8.self) })
        #expect(names == [ids["Family/a.jpg"]! + ".jpg", ids["Family/later.jpg"]! + ".jpg", ids["Family/Sub/deeper.png"]! + ".png"])
        #expect(!names.contains { $0.contains("Family") })
    }

    @Test("an album rename keeps asset IDs and selections, and the authorized view follows")
    func albumRenameKeepsIDs() async throws {
        let daemon = try await started { lib in
            try lib.makeDirectory(lib.path("Trips/2024"))
            try lib.write("Trips/2024/a.jpg")
            try lib.write("Trips/b.jpg")
        }
        let lib = daemon.library
        try await daemon.ok("app", "add", app, "--uid", "4242")
        try await daemon.ok("app", "add", "org.example.All", "--uid", "4243")
        try await daemon.ok("authorize", app, "limited")
        try await daemon.ok("authorize", "org.example.All", "authorized")
        try await daemon.ok("select", app, "--album", "Trips/2024", "Trips/b.jpg")
        let before = try await daemon.assets()
        #expect(rename(lib.path("Trips"), lib.path("Voyages")) == 0)
        try await waitUntil("the rename to reach the index") { try await daemon.assets()["Voyages/2024/a.jpg"] != nil }
        let after = try await daemon.assets()
        #expect(after["Voyages/2024/a.jpg"] == before["Trips/2024/a.jpg"])
        #expect(after["Voyages/b.jpg"] == before["Trips/b.jpg"])
        let selection = try await daemon.ok("selection", app, "--json")
        #expect(selection.contains("Voyages/2024"))
        #expect(selection.contains(before["Trips/b.jpg"]!))
        #expect(await lib.entries(daemon.view(app)).count == 2)
        try await waitUntil("the authorized view to follow") {
            await lib.files(below: daemon.view("org.example.All")) == ["Voyages/2024/a.jpg", "Voyages/b.jpg"]
        }
    }

    @Test("nested directory renames: later files land under the new path (where libinotifytools' tables go wrong)")
    func nestedRenamesTrackPaths() async throws {
        let daemon = try await started { lib in try lib.write("a/b/c/one.jpg") }
        let lib = daemon.library
        try await daemon.addApp("org.example.All", "authorized", uid: 4243)
        let id = try await daemon.assets()["a/b/c/one.jpg"]!
        #expect(rename(lib.path("a/b"), lib.path("b2")) == 0)      // inner directory out to the root
        #expect(rename(lib.path("a"), lib.path("b2/c/a3")) == 0)   // outer directory into the moved one
        try lib.write("b2/c/two.jpg")
        try lib.write("b2/c/a3/three.jpg")
        #expect(rename(lib.path("b2/c/one.jpg"), lib.path("b2/c/a3/one.jpg")) == 0)  // a file between albums
        let expected: Set<String> = ["b2/c/a3/one.jpg", "b2/c/two.jpg", "b2/c/a3/three.jpg"]
        try await waitUntil("the view to show the new layout") { await lib.files(below: daemon.view("org.example.All")) == expected }
        let assets = try await daemon.assets()
        #expect(Set(assets.keys) == expected)
        #expect(assets["b2/c/a3/one.jpg"] == id)
    }

    @Test("an atomic save relinks the view to the new content and keeps the asset's ID")
    func atomicSaveRelinks() async throws {
        let daemon = try await started { lib in try lib.write("edit.jpg", contents: "old") }
        let lib = daemon.library
        try await daemon.addApp(app, "limited", uid: 4242)
        let id = try await daemon.assets()["edit.jpg"]!
        try await daemon.ok("select", app, id)
        let entry = await daemon.view(app) + "/" + (try daemon.appIDs(app)["edit.jpg"]!) + ".jpg"
        #expect(try String(contentsOfFile: entry, encoding: .utf8) == "old")
        try lib.write(".edit.jpg.swp", contents: "new content")
        #expect(rename(lib.path(".edit.jpg.swp"), lib.path("edit.jpg")) == 0)
        try await waitUntil("the view to show the saved content") {
            (try? String(contentsOfFile: entry, encoding: .utf8)) == "new content"
        }
        #expect(lib.inode(entry) == lib.inode(lib.path("edit.jpg")))
        #expect(try await daemon.assets() == ["edit.jpg": id])
    }

    @Test("a deleted file leaves every view")
    func deletedFileLeavesEveryView() async throws {
        let daemon = try await started { lib in
            try lib.write("gone.jpg")
            try lib.write("stays.jpg")
        }
        let lib = daemon.library
        for (name, status) in [("org.example.A", "limited"), ("org.example.B", "authorized")] {
            try await daemon.ok("app", "add", name, "--uid", "4242")
            try await daemon.ok("authorize", name, status)
        }
        try await daemon.ok("select", "org.example.A", "gone.jpg", "stays.jpg")
        #expect(await lib.entries(daemon.view("org.example.A")).count == 2)
        #expect(unlink(lib.path("gone.jpg")) == 0)
        try await waitUntil("the file to leave both views") {
            let a = await daemon.view("org.example.A"), b = await daemon.view("org.example.B")
            return lib.entries(a).count == 1 && lib.files(below: b) == ["stays.jpg"]
        }
        #expect(try await daemon.assets().keys.sorted() == ["stays.jpg"])
    }

    @Test("symlinks, FIFOs and non-photo files never become assets or view entries")
    func onlyRegularPhotoFiles() async throws {
        let daemon = try await started { lib in
            try lib.write("real.jpg")
            try lib.write("notes.txt")
            try lib.write(".hidden.jpg")
            symlink("/etc/passwd", lib.path("link.jpg"))
            mkfifo(lib.path("fifo.jpg"), 0o644)
        }
        let lib = daemon.library
        #expect(try await daemon.assets().keys.sorted() == ["real.jpg"])
        try await daemon.addApp(app, "authorized", uid: 4242)
        #expect(await lib.files(below: daemon.view(app)) == ["real.jpg"])
        symlink("/etc/hostname", lib.path("later-link.jpg"))
        try lib.write("later.jpg")
        try await waitUntil("the later photo") { await lib.files(below: daemon.view(app)).contains("later.jpg") }
        #expect(await lib.files(below: daemon.view(app)) == ["real.jpg", "later.jpg"])
    }

    @Test("a photo hardlinked into the library (IN_CREATE only, no close) is indexed; one still being written is not yet")
    func hardlinkedArrivals() async throws {
        let daemon = try await started()
        let lib = daemon.library
        try await daemon.addApp(app, "authorized", uid: 4242)
        _ = FileManager.default.createFile(atPath: lib.root + "/outside.jpg", contents: Data("x".utf8))
        #expect(link(lib.root + "/outside.jpg", lib.path("linked.jpg")) == 0)
        let writing = open(lib.path("writing.jpg"), O_WRONLY | O_CREAT, 0o644)
        _ = write(writing, "partial", 7)
        try await waitUntil("the linked photo") { await lib.files(below: daemon.view(app)).contains("linked.jpg") }
        #expect(await !lib.files(below: daemon.view(app)).contains("writing.jpg"))
        close(writing)
        try await waitUntil("the completed photo") { await lib.files(below: daemon.view(app)).contains("writing.jpg") }
    }

    @Test("a file others may write is indexed but never linked")
    func writableOriginalsAreNotLinked() async throws {
        let daemon = try await started { lib in
            try lib.write("safe.jpg")
            try lib.write("open.jpg")
            chmod(lib.path("open.jpg"), 0o666)
        }
        let lib = daemon.library
        try await daemon.addApp(app, "authorized", uid: 4242)
        #expect(await lib.files(below: daemon.view(app)) == ["safe.jpg"])
        let listed = try await daemon.ok("assets", "--refused")
        #expect(listed.contains("open.jpg") && listed.contains("chmod go-w") && !listed.contains("safe.jpg"))
        chmod(lib.path("open.jpg"), 0o644)
        try await waitUntil("the fixed file to be linked") { await lib.files(below: daemon.view(app)).count == 2 }
        chmod(lib.path("safe.jpg"), 0o664)
        try await waitUntil("the now group-writable file to be unlinked") { await lib.files(below: daemon.view(app)) == ["open.jpg"] }
    }

    @Test("a view damaged while the daemon was down is repaired at start, and edits survive a kill")
    func restartRepairsViews() async throws {
        let daemon = try await started { lib in
            for i in 1...3 { try lib.write("p\(i).jpg") }
        }
        let lib = daemon.library
        try await daemon.addApp(app, "limited", uid: 4242)
        try await daemon.ok("select", app, "p1.jpg", "p2.jpg")
        let library = try await daemon.assets()
        let ids = try await daemon.appIDs(app)
        let view = await daemon.view(app)
        await daemon.kill()
        // While it is down: damage the view, and change the library.
        #expect(unlink(view + "/" + ids["p1.jpg"]! + ".jpg") == 0)
        _ = FileManager.default.createFile(atPath: view + "/intruder.jpg", contents: Data("x".utf8))
        symlink("/etc/passwd", view + "/evil.jpg")
        // An entry swapped for another file under the same name: replaced in place.
        let swapped = view + "/" + ids["p2.jpg"]! + ".jpg"
        #expect(unlink(swapped) == 0)
        _ = FileManager.default.createFile(atPath: swapped, contents: Data("not the photo".utf8))
        #expect(rename(lib.path("p2.jpg"), lib.path("renamed.jpg")) == 0)
        try await daemon.start()
        let after = try await daemon.assets()
        #expect(after["renamed.jpg"] == library["p2.jpg"])  // matched by inode: same asset, same selection
        #expect(await Set(lib.entries(daemon.view(app)).map { String(decoding: $0, as: UTF8.self) })
                == [ids["p1.jpg"]! + ".jpg", ids["p2.jpg"]! + ".jpg"])
        #expect(lib.inode(swapped) == lib.inode(lib.path("renamed.jpg")), "the swapped entry was not replaced by the original")
    }
}

