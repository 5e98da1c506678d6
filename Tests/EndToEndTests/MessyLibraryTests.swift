import Foundation
import Glibc
import PhotoLibProtocol
import Testing

/// The promise on libraries as people have them (SPEC §3), with photolibd run
/// by an ordinary user who owns the library: root would hide every one of these.
@Suite("Messy libraries, with the daemon run by their owner", .serialized)
struct MessyLibraryTests {
    let viewer = "org.example.Viewer"
    let picker = "org.example.Picker"

    @Test("a root-owned original (sudo cp) is refused alone: the daemon is ready, the rest is shared, and assets, select and doctor name it")
    func rootOwnedOriginalIsRefusedAlone() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("mine/a.jpg")
            try lib.write("mine/b.jpg")
            try lib.writeAsRoot("mine/root.jpg")
        }
        let lib = daemon.library
        #expect(try await daemon.status().state == "ready")
        try await daemon.addApp(viewer, "authorized", uid: 4242)
        #expect(await daemon.viewEntries(viewer) == ["mine/a.jpg", "mine/b.jpg"])

        try await daemon.addApp(picker, "limited", uid: 4243)
        let selected = try await daemon.ctl("select", picker, "mine/root.jpg", "mine/a.jpg")
        #expect(selected.status == 0, "a refused original must not fail the edit: \(selected.stderr)")
        #expect(selected.stderr.contains("mine/root.jpg") && selected.stderr.contains("belongs to another user"), "\(selected.stderr)")
        #expect(await daemon.viewEntries(picker).count == 1)

        let refused = try await daemon.assetInfos("--refused")
        #expect(refused.map(\.path) == ["mine/root.jpg"])
        #expect(refused.first?.refused == "ownedByAnotherUser")
        let doctor = try await daemon.ctl("doctor")
        #expect(doctor.stdout.contains("refused-originals") && doctor.stdout.contains("mine/root.jpg"), "\(doctor.stdout)")

        // The database stays the owner's alone, whatever the umask the daemon was started with.
        for name in try FileManager.default.contentsOfDirectory(atPath: lib.state) where name.hasSuffix(".sqlite") || name.contains(".sqlite-") {
            var st = stat()
            stat(lib.state + "/" + name, &st)
            #expect(st.st_mode & 0o077 == 0, "\(name) is \(String(st.st_mode & 0o777, radix: 8))")
        }

        // Given to the owner, it is shared like the rest, with no restart.
        try lib.owner!.own(lib.path("mine/root.jpg"))
        try await waitUntil("the fixed original in both views") {
            let viewing = await daemon.viewEntries(viewer), picking = await daemon.viewEntries(picker)
            return viewing.count == 3 && picking.count == 2
        }
        #expect(try await daemon.assetInfos("--refused").isEmpty)
    }

    @Test("a directory the daemon cannot read keeps its photos, IDs and selections; status is degraded and names it until it can read it again")
    func unreadableDirectoryIsNotDeleted() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("Trip/1.jpg")
            try lib.write("Trip/Day 2/2.jpg")
            try lib.write("other.jpg")
        }
        let lib = daemon.library
        try await daemon.addApp(viewer, "authorized", uid: 4242)
        try await daemon.addApp(picker, "limited", uid: 4243)
        try await daemon.ok("select", picker, "Trip/1.jpg", "Trip/Day 2/2.jpg")
        let before = try await daemon.assets()
        let pickerView = await daemon.viewEntries(picker)
        #expect(pickerView.count == 2)

        chmod(lib.path("Trip"), 0)
        try await waitUntil("status to name the unreadable album") { try await daemon.status().unreadable == ["Trip"] }
        #expect(try await daemon.status().state == "degraded")
        try await daemon.ok("rescan")  // a full walk while it is unreadable takes nothing away either
        #expect(try await daemon.status().unreadable == ["Trip"])
        #expect(try await daemon.assets() == before, "an unreadable album was taken for deleted")
        #expect(await daemon.viewEntries(picker) == pickerView)
        #expect(await daemon.viewEntries(viewer) == ["Trip/1.jpg", "Trip/Day 2/2.jpg", "other.jpg"])
        #expect(try await daemon.ok("status").contains("unreadable"))
        let doctor = try await daemon.ctl("doctor")
        #expect(doctor.stdout.contains("cannot read") && doctor.stdout.contains("Trip"), "\(doctor.stdout)")
        // Given access meanwhile, an app cannot have what cannot be read yet...
        let late = "org.example.Late"
        try await daemon.addApp(late, "authorized", uid: 4244)
        #expect(await !daemon.viewEntries(late).contains("Trip/1.jpg"))

        chmod(lib.path("Trip"), 0o755)
        try await waitUntil("the album to be readable again") { try await daemon.status().state == "ready" }
        #expect(try await daemon.status().unreadable == nil)
        #expect(try await daemon.assets() == before)
        #expect(await daemon.viewEntries(picker) == pickerView)
        // ...and has it once it can be read, with no rescan.
        try await waitUntil("the late app's view to be complete") {
            await daemon.viewEntries(late) == ["Trip/1.jpg", "Trip/Day 2/2.jpg", "other.jpg"]
        }
    }

    @Test("a photo moved to a trash folder inside the library leaves every view; trash folders are never albums")
    func trashFoldersAreNotInTheLibrary() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg")
            try lib.write("b.jpg")
            try lib.write("Album/c.jpg")
            try lib.write(".dtrash/files/old.jpg")
            try lib.write(".Trash-1000/files/older.jpg")
            try lib.write("Album/.thumbnails/c.png")
        }
        let lib = daemon.library
        #expect(await Set(try daemon.assets().keys) == ["a.jpg", "b.jpg", "Album/c.jpg"])
        try await daemon.addApp(viewer, "authorized", uid: 4242)
        try await daemon.addApp(picker, "limited", uid: 4243)
        try await daemon.ok("select", picker, "a.jpg", "Album/c.jpg")
        #expect(await daemon.viewEntries(viewer) == ["a.jpg", "b.jpg", "Album/c.jpg"])

        // digiKam's delete: a rename into .dtrash; GIO's: into .Trash-UID.
        #expect(rename(lib.path("a.jpg"), lib.path(".dtrash/files/a.jpg")) == 0)
        #expect(rename(lib.path("Album"), lib.path(".Trash-1000/files/Album")) == 0)
        try await waitUntil("the trashed photos to leave every view") {
            let picking = await daemon.viewEntries(picker), viewing = await daemon.viewEntries(viewer)
            return picking.isEmpty && viewing == ["b.jpg"]
        }
        #expect(await Set(try daemon.assets().keys) == ["b.jpg"])
        try await daemon.ok("rescan")
        #expect(await Set(try daemon.assets().keys) == ["b.jpg"])
        #expect(await daemon.viewEntries(viewer) == ["b.jpg"])
        #expect(await lib.entries(daemon.view(viewer)).count == 1, "a trash folder appeared in an authorized view")
    }

    @Test("a file given a reused inode number while the daemon was down never inherits an ID or a selection")
    func reusedInodeIsANewAsset() async throws {
        // On a filesystem of its own: on /tmp, tests running meanwhile take freed inode numbers.
        let daemon = try await RunningDaemon.startedByOwner(ownFilesystem: true) { lib in
            try lib.write("shared/chosen.jpg", contents: "shared photo")
        }
        let lib = daemon.library
        try await daemon.addApp(picker, "limited", uid: 4243)
        try await daemon.ok("select", picker, "shared/chosen.jpg")
        let chosenID = try #require(try await daemon.assets()["shared/chosen.jpg"])
        #expect(await daemon.viewEntries(picker).count == 1)
        // Denied for now: the selection stays, the view's hardlink goes, so
        // deleting the photo frees its inode number.
        try await daemon.ok("authorize", picker, "denied")
        await daemon.stop()

        // ext4 hands a freed inode number to the next file at once: delete the
        // shared photo, then write a private one until it gets that number.
        // (Each miss is removed again, so no number is used up meanwhile.)
        let freed = try #require(lib.inode(lib.path("shared/chosen.jpg")))
        #expect(unlink(lib.path("shared/chosen.jpg")) == 0)
        let privateName = "shared/private.jpg"
        let deadline = Date().addingTimeInterval(30)
        var reused = false
        while !reused, Date() < deadline {
            try lib.write(privateName, contents: "private photo")
            reused = lib.inode(lib.path(privateName)) == freed
            if !reused {
                unlink(lib.path(privateName))
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        try #require(reused, "the filesystem never gave inode \(freed) again within 30 s; this test needs ext4's reuse")

        try await daemon.start()
        try await daemon.ok("authorize", picker, "limited")
        let after = try await daemon.assets()
        #expect(after[privateName] != nil)
        #expect(after[privateName] != chosenID, "a private photo inherited a shared photo's ID through a reused inode number")
        #expect(!after.values.contains(chosenID))
        #expect(await daemon.viewEntries(picker).isEmpty, "a private photo appeared in a limited view")
        let selection = try await JSONDecoder().decode(SelectionResult.self, from: Data(try daemon.ok("selection", picker, "--json").utf8))
        #expect(selection.assets.isEmpty)
    }
}
