import Foundation
import Glibc
import Testing

/// Issue 50's restart: a clean stop records a digest of each album's rows, and the next start's
/// scan compares with the index only the directories whose listing no longer digests the same.
/// Whatever is done to the library while the daemon is down must be found all the same.
@Suite("A restart that trusts the albums' digests", .serialized)
struct AlbumDigestTests {
    static let app = "org.example.Viewer"
    static let albums = ["a", "b", "c", "d", "e", "f", "f/g", "h"]

    /// Each asset's ID, size and refusal, by path, as `photolibctl assets --json` lists them.
    static func assets(_ daemon: RunningDaemon) async throws -> [String: String] {
        let json = try await daemon.ok("assets", "--json")
        let listed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        var out: [String: String] = [:]
        for asset in listed {
            guard let path = asset["path"] as? String, let id = asset["id"] as? String else { continue }
            out[path] = "\(id) \(asset["size"] as? Int ?? -1) \(asset["refused"] as? String ?? "-")"
        }
        return out
    }

    @Test("after a clean stop, a file added, removed, grown in place, replaced under its name with the same size and time, opened to others' writes, and renamed while the daemon was down are each found; only the untouched directories' rows are not read")
    func changedWhileDown() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        for album in Self.albums { for index in 0..<3 { try library.write("\(album)/\(index).jpg") } }
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        defer { daemon.stopLater() }
        try await daemon.ok("app", "add", Self.app, "--uid", "4242", "--location", "precise")
        try await daemon.ok("authorize", Self.app, "authorized")
        let view = await daemon.view(Self.app)
        try await waitUntil("the view to be built") { await daemon.viewEntries(Self.app).count == 24 }
        let before = try await Self.assets(daemon)
        #expect(before.count == 24)
        await daemon.stop()
        // The root and its eight albums.
        #expect(daemon.log.contains("Recorded the digests of 9 albums' rows"), "\(daemon.log.suffix(3000))")

        // While it is down, as the owner's programs (or a sync) could: a file added (a), one removed
        // (b), one grown in place, its inode kept (c), one replaced by another file with the same
        // size and modification time (d), one made writable by others (e), one renamed (f/g).
        try library.write("a/new.jpg")
        #expect(unlink(library.path("b/0.jpg")) == 0)
        try library.write("c/0.jpg", contents: "photo, longer now")
        let replaced = library.path("d/0.jpg")
        var original = stat()
        #expect(stat(replaced, &original) == 0)
        try library.write("d/swap.tmp")
        var times = [original.st_atim, original.st_mtim]
        #expect(utimensat(AT_FDCWD, library.path("d/swap.tmp"), &times, 0) == 0)
        #expect(rename(library.path("d/swap.tmp"), replaced) == 0)
        #expect(chmod(library.path("e/0.jpg"), 0o666) == 0)
        #expect(rename(library.path("f/g/0.jpg"), library.path("f/g/renamed.jpg")) == 0)

        try await daemon.start()
        // Read: a, b, c, d, e and f/g; left unread: the root, f and h.
        #expect(daemon.log.contains("The scan read the rows of 6 of 9 library directories"), "\(daemon.log.suffix(3000))")
        let after = try await Self.assets(daemon)
        var wanted = before
        wanted["a/new.jpg"] = after["a/new.jpg"]
        #expect(after["a/new.jpg"] != nil, "a file added while down is indexed")
        wanted["b/0.jpg"] = nil
        #expect(after["c/0.jpg"]?.hasPrefix((before["c/0.jpg"] ?? "").split(separator: " ")[0] + " 17 ") == true, "grown in place: \(after["c/0.jpg"] ?? "none")")
        wanted["c/0.jpg"] = after["c/0.jpg"]
        #expect(after["e/0.jpg"]?.hasSuffix(" writableByOthers") == true, "opened to others' writes: \(after["e/0.jpg"] ?? "none")")
        wanted["e/0.jpg"] = after["e/0.jpg"]
        wanted["f/g/renamed.jpg"] = before["f/g/0.jpg"]  // the same ID: renamed, not new
        wanted["f/g/0.jpg"] = nil
        #expect(after == wanted, "\(after.sorted { $0.key < $1.key })")
        // The replaced file is the one the view links now.
        try await waitUntil("the view to link the replaced file") { library.inode(view + "/d/0.jpg") == library.inode(replaced) }

        // Stopped and started with nothing changed: no directory's rows are read.
        await daemon.stop()
        try await daemon.start()
        #expect(daemon.log.contains("The scan read the rows of 0 of 9 library directories"), "\(daemon.log.suffix(3000))")
        #expect(try await Self.assets(daemon) == after)

        // Killed: the digests this start took are gone, and a file added meanwhile to an album the
        // last start left unread is found by a scan that reads every directory.
        await daemon.kill()
        try library.write("h/late.jpg")
        try await daemon.start()
        #expect(!daemon.log.contains("The scan read the rows of"), "\(daemon.log.suffix(3000))")
        #expect(try await Self.assets(daemon)["h/late.jpg"] != nil)
    }
}
