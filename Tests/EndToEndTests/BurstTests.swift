import Foundation
import Glibc
import Testing

/// The two ways `inotifywait -r` loses files (FIELD-NOTES), which photolibd must not.
@Suite("Nothing is lost in bursts", .serialized)
struct BurstTests {
    let app = "org.example.All"

    @Test("mkdir -p a/b/c then 100 files at once, 20 times: every file reaches an authorized view")
    func newDirectoryRace() async throws {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp(app, "authorized", uid: 4242)
        var expected: Set<String> = []
        for round in 0..<20 {
            let directory = "r\(round)/a/b/c"
            // mkdir -p and the writes follow each other at once, as a C writer does.
            var path = library.library
            for part in directory.split(separator: "/") {
                path += "/" + part
                mkdir(path, 0o755)
            }
            for file in 0..<100 {
                try library.write(Array("\(directory)/f\(file).jpg".utf8))
                expected.insert("\(directory)/f\(file).jpg")
            }
        }
        try await waitUntil("all 2,000 files in the view", timeout: 120) {
            await library.files(below: daemon.view(app)).count >= expected.count
        }
        #expect(await library.files(below: daemon.view(app)) == expected)
        #expect(try await daemon.assetList().count == expected.count)
    }

    @Test("a directory of 10,000 files moved in with one rename: all 10,000 are indexed and linked")
    func tenThousandMovedIn() async throws {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp(app, "authorized", uid: 4242)
        let staging = library.root + "/staging"
        try library.makeDirectory(staging)
        for index in 0..<10_000 {
            let fd = open(staging + "/img\(index).jpg", O_WRONLY | O_CREAT, 0o644)
            _ = write(fd, "x", 1)
            close(fd)
        }
        let started = Date()
        #expect(rename(staging, library.path("big")) == 0)
        try await waitUntil("10,000 files in the view", timeout: 300) {
            await library.entries(daemon.view(app) + "/big").count >= 10_000
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(await library.entries(daemon.view(app) + "/big").count == 10_000)
        #expect(try await daemon.assetList().count == 10_000)
        print("10,000 files moved in: all linked after \(String(format: "%.2f", elapsed)) s")
    }
}

/// Names are bytes: nothing merged, nothing lost.
@Suite("Hostile names", .serialized)
struct HostileNameTests {
    static let names: [[UInt8]] = [
        Array("bad".utf8) + [0xFF] + Array(".jpg".utf8),
        Array("bad".utf8) + [0xFE] + Array(".jpg".utf8),
        Array("caf".utf8) + [0xC3, 0xA9] + Array(".jpg".utf8),          // NFC
        Array("cafe".utf8) + [0xCC, 0x81] + Array(".jpg".utf8),         // NFD
        Array("new".utf8) + [0x0A] + Array("line.jpg".utf8),
        Array("back\\slash.jpg".utf8),
        [UInt8](repeating: 0x61, count: 251) + Array(".jpg".utf8),      // 255 bytes
    ]

    @Test("invalid UTF-8, NFC/NFD twins, a newline, a backslash, 255 bytes: one asset and one view entry each")
    func oneAssetEach() async throws {
        let library = try TestLibrary()
        for name in Self.names { try library.write(name) }
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        let assets = try await daemon.assetList()
        #expect(assets.count == Self.names.count)
        #expect(Set(assets.map(\.id)).count == Self.names.count)
        try await daemon.addApp("org.example.All", "authorized", uid: 4242)
        #expect(await Set(library.entries(daemon.view("org.example.All"))) == Set(Self.names))

        // Each can be selected by the escaped path `assets` printed, and by ID.
        try await daemon.addApp("org.example.Some", "limited", uid: 4243)
        for asset in assets.prefix(4) { try await daemon.ok("select", "org.example.Some", asset.path) }
        for asset in assets.dropFirst(4) { try await daemon.ok("select", "org.example.Some", asset.id) }
        #expect(await library.entries(daemon.view("org.example.Some")).count == Self.names.count)

        // Created while running, too.
        let twin = Array("twin".utf8) + [0x80] + Array(".png".utf8)
        try library.write(twin)
        try await waitUntil("the new hostile name") { await Set(library.entries(daemon.view("org.example.All"))).contains(twin) }
    }
}
