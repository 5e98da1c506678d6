import Foundation
import Glibc
import Testing

/// Issue 50's restart: a clean stop records each view directory's stamp, and the next start reads
/// only the directories whose stamp or album changed. Whatever is done to a view while the daemon
/// is down must be found all the same.
@Suite("A restart that trusts the views' stamps", .serialized)
struct ViewStampTests {
    static let app = "org.example.Viewer"
    static let albums = ["a", "b", "c", "d", "e", "f", "f/g", "h"]

    /// Every file of the view, by path inside it, and its inode.
    static func entries(of view: String) -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        let enumerator = FileManager.default.enumerator(atPath: view)
        while let relative = enumerator?.nextObject() as? String {
            var st = stat()
            guard lstat(view + "/" + relative, &st) == 0 else { continue }
            if st.st_mode & S_IFMT != S_IFDIR { found[relative] = UInt64(st.st_ino) }
        }
        return found
    }

    @Test("after a clean stop, an entry added, removed or swapped and a directory replaced in a view while the daemon was down are each put right, a photo added meanwhile arrives, and only the untouched directories are trusted")
    func tamperedWhileDown() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        for album in Self.albums { for index in 0..<3 { try library.write("\(album)/\(index).jpg") } }
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        defer { daemon.stopLater() }
        try await daemon.ok("app", "add", Self.app, "--uid", "4242", "--location", "precise")
        try await daemon.ok("authorize", Self.app, "authorized")
        let view = await daemon.view(Self.app)
        // What the view must hold: each library file at its path, the same inode.
        var wanted: [String: UInt64] = [:]
        for album in Self.albums { for index in 0..<3 { wanted["\(album)/\(index).jpg"] = library.inode(library.path("\(album)/\(index).jpg")) } }
        try await waitUntil("the view to be built") { Self.entries(of: view) == wanted }
        await daemon.stop()
        // The root and the eight albums' directories.
        #expect(daemon.log.contains("Recorded the stamps of 9 view directories"), "\(daemon.log.suffix(3000))")

        // While it is down, as the owner's own programs could: an entry added (a, a file from outside
        // the library), one removed (b), one swapped for another file under its name (c), the
        // directory replaced by another holding the same names, one of them a stranger (d); and a photo
        // added to the library (e). Made by root here, and given to the owner.
        let outside = library.root + "/outside.jpg"
        try Data("not from the library".utf8).write(to: URL(fileURLWithPath: outside))
        #expect(chown(outside, owner.uid, owner.gid) == 0)
        #expect(link(outside, view + "/a/extra.jpg") == 0)
        #expect(unlink(view + "/b/0.jpg") == 0)
        #expect(link(outside, view + "/c/swapped") == 0)
        #expect(rename(view + "/c/swapped", view + "/c/1.jpg") == 0)
        #expect(rename(view + "/d", view + "/d.old") == 0)
        #expect(mkdir(view + "/d", 0o700) == 0 && chown(view + "/d", owner.uid, owner.gid) == 0)
        #expect(link(view + "/d.old/0.jpg", view + "/d/0.jpg") == 0)
        #expect(link(view + "/d.old/1.jpg", view + "/d/1.jpg") == 0)
        #expect(link(outside, view + "/d/2.jpg") == 0)
        try library.write("e/new.jpg")
        wanted["e/new.jpg"] = library.inode(library.path("e/new.jpg"))

        try await daemon.start()
        #expect(Self.entries(of: view) == wanted, "the view after the start: \(Self.entries(of: view).sorted { $0.key < $1.key })")
        // Read again: the root (d moved and made in it), a, b, c, d and e; trusted: f, f/g and h.
        #expect(daemon.log.contains("3 directories as the last clean stop left them"), "\(daemon.log.suffix(3000))")

        // Stopped and started with nothing changed: every directory is trusted, and the view stays whole.
        await daemon.stop()
        #expect(daemon.log.contains("Recorded the stamps of 9 view directories"), "\(daemon.log.suffix(3000))")
        try await daemon.start()
        #expect(daemon.log.contains("9 directories as the last clean stop left them"), "\(daemon.log.suffix(3000))")
        #expect(Self.entries(of: view) == wanted)
    }

    @Test("a daemon killed leaves no stamps: the next start reads every directory, and finds what was done to the view")
    func killedLeavesNone() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        for album in ["a", "b"] { for index in 0..<2 { try library.write("\(album)/\(index).jpg") } }
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        defer { daemon.stopLater() }
        try await daemon.ok("app", "add", Self.app, "--uid", "4242", "--location", "precise")
        try await daemon.ok("authorize", Self.app, "authorized")
        let view = await daemon.view(Self.app)
        try await waitUntil("the view to be built") { Self.entries(of: view).count == 4 }
        await daemon.stop()
        #expect(daemon.log.contains("Recorded the stamps of 3 view directories"), "\(daemon.log.suffix(3000))")
        // This start takes (and deletes) the stamps; it is killed, and records none.
        try await daemon.start()
        #expect(daemon.log.contains("3 directories as the last clean stop left them"), "\(daemon.log.suffix(3000))")
        await daemon.kill()
        #expect(unlink(view + "/a/0.jpg") == 0)
        try await daemon.start()
        #expect(!daemon.log.contains("directories as the last clean stop left them"), "\(daemon.log.suffix(3000))")
        #expect(library.inode(view + "/a/0.jpg") == library.inode(library.path("a/0.jpg")))
    }
}
