import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing
import TestSupport

/// Location per app (SPEC §9): an app with `--location none` gets every photo
/// and video that carries a location as a derivative without it; an app with
/// `precise` gets the originals. Real files made by the tests (heif-enc,
/// exiftool), read back with exiftool, with the daemon run by the library's owner.
@Suite("Location per app", .serialized)
struct LocationTests {
    static let hidden = "org.example.Social"  // registered without --location: none
    static let shown = "org.example.Maps"     // --location precise
    static let files = ["Trip/photo.jpg", "Trip/photo.heic", "Trip/clip.mp4"]

    /// Makes the geotagged media once per test, in a directory of its own.
    static func media(latitude: Double? = nil, longitude: Double? = nil) async throws -> String {
        var template = Array("/tmp/photolibd-media-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: \(errno)") }
        let directory = String(cString: made)
        RunRecord.madeDirectory(directory)
        let place = latitude.flatMap { latitude in longitude.map { [String(latitude), String($0)] } } ?? []
        let result = try await run(RunningDaemon.script("make-geotagged-media"), [directory] + place)
        guard result.status == 0 else { throw TestFailure("make-geotagged-media failed: \(result.stderr)") }
        return directory
    }

    /// What exiftool reads of a file's location: every GPS tag, place name and QuickTime location, one per line.
    static func location(_ path: String) async throws -> [String] {
        let result = try await run("/usr/bin/exiftool", ["-q", "-a", "-G1", "-s", "-gps:all", "-location:all", "-GPSCoordinates",
                                                   "-GPSPosition", "-City", path])
        #expect(result.stderr.isEmpty, "exiftool warns about \(path): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A JPEG with every metadata segment removed (exiftool -all=): what is left is the image data.
    static func jpegImageData(_ path: String) async throws -> [UInt8] {
        let out = path + ".bare.jpg"
        defer { unlink(out) }
        let result = try await run("/usr/bin/exiftool", ["-q", "-all=", "-o", out, path])
        guard result.status == 0 else { throw TestFailure("exiftool -all= \(path): \(result.stderr)") }
        return try bytes(out)
    }

    /// A HEIC decoded (heif-convert) to PNG: its pixels, the PNG's IDAT chunks.
    static func heicPixels(_ path: String) async throws -> [UInt8] {
        let out = "/tmp/photolibd-decoded-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { unlink(out) }
        let result = try await run("/usr/bin/heif-convert", [path, out])
        guard result.status == 0 else { throw TestFailure("heif-convert \(path): \(result.stderr)") }
        var png = try bytes(out)[8...]
        var pixels: [UInt8] = []
        while png.count >= 12 {
            let start = png.startIndex
            let length = Int(png[start]) << 24 | Int(png[start + 1]) << 16 | Int(png[start + 2]) << 8 | Int(png[start + 3])
            if png[start + 4..<start + 8].elementsEqual("IDAT".utf8) { pixels += png[start + 8..<start + 8 + length] }
            png = png[(start + 12 + length)...]
        }
        return pixels
    }

    /// An MP4's `mdat` box and what follows it (the video data).
    static func mediaData(_ path: String) throws -> [UInt8] {
        let all = try bytes(path)
        let mdat = Array("mdat".utf8)
        guard let at = (0...(all.count - 4)).first(where: { all[$0..<$0 + 4].elementsEqual(mdat) }) else {
            throw TestFailure("\(path) has no mdat box")
        }
        return Array(all[at...])
    }

    func size(_ path: String) -> Int64? {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : nil
    }

    func inode(_ path: String) -> UInt64? {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    @Test("a geotagged photo arriving for an app without location has its copy made before the transaction that indexes it, which adopts it")
    func copyMadeAhead() async throws {
        let media = try await Self.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let library = try await TestLibrary(owner: try TestOwner())
        try library.write("Trip/first.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--verbose"])
        try await daemon.ok("app", "add", Self.hidden, "--uid", "4242")
        try await daemon.ok("authorize", Self.hidden, "limited")
        try await daemon.ok("select", Self.hidden, "--album", "Trip")
        // Written outside the library (on its filesystem) and renamed into place, as importers do: one
        // event brings the finished file. (A plain copy's later utimes and chown could change it after the
        // look ahead, which the transaction then rightly looks at again.)
        let incoming = library.root + "/incoming"
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: false)
        try library.owner!.own(incoming)
        try FileManager.default.copyItem(atPath: media + "/photo.jpg", toPath: incoming + "/photo.jpg")
        try library.owner!.own(incoming + "/photo.jpg")
        #expect(rename(incoming + "/photo.jpg", library.path("Trip/photo.jpg")) == 0)
        let view = await daemon.view(Self.hidden)
        var entry = ""
        try await waitUntil("the copy without location in the view") {
            guard let id = try await daemon.appIDs(Self.hidden)["Trip/photo.jpg"] else { return false }
            entry = view + "/\(id).jpg"
            return FileManager.default.fileExists(atPath: entry)
        }
        #expect(try await Self.location(entry) == [])
        // The photo's member adopted the look made ahead, and was not looked at again inside the transaction.
        let adopted = daemon.log.split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasSuffix("adopted the location check made ahead of its transaction.") else { return nil }
            return line.split(separator: " ").drop { $0 != "Member" }.dropFirst().first
        }
        #expect(adopted.count == 1, "\(daemon.log)")
        #expect(!adopted.contains { daemon.log.contains("Member \($0) is looked at") }, "\(daemon.log)")
        #expect(try await daemon.status().derivatives == 1)

        // A folder of them moved in from outside the library (the same filesystem), as a copy tool leaves it:
        // each file below it too.
        for directory in [incoming + "/Import", incoming + "/Import/deeper"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try library.owner!.own(directory)
        }
        for (source, target) in [("photo.jpg", "Import/a.jpg"), ("photo.heic", "Import/deeper/b.heic"), ("plain.jpg", "Import/c.jpg")] {
            try FileManager.default.copyItem(atPath: media + "/" + source, toPath: incoming + "/" + target)
            try library.owner!.own(incoming + "/" + target)
        }
        #expect(rename(incoming + "/Import", library.path("Trip/Import")) == 0)
        try await waitUntil("the folder's photos in the view") {
            let ids = try await daemon.appIDs(Self.hidden)
            return ["Trip/Import/a.jpg", "Trip/Import/deeper/b.heic", "Trip/Import/c.jpg"].allSatisfy { ids[$0] != nil }
        }
        let lines = daemon.log.split(separator: "\n")
        let adoptedNow = lines.filter { $0.hasSuffix("adopted the location check made ahead of its transaction.") }
        #expect(adoptedNow.count == 4, "the photo, and the three below the folder (one without location): \(daemon.log)")
        #expect(try await daemon.status().derivatives == 3, "the plain JPEG needs none")
        let derivatives = library.entries(library.views + "/.derivatives").map { String(decoding: $0, as: UTF8.self) }
        #expect(derivatives.count == 3 && derivatives.allSatisfy { $0.hasPrefix("m") }, "each in its place, no copy left over: \(derivatives)")
    }

    @Test("an app with location none sees none in JPEG, HEIC or MP4 and the same image data; a precise app sees it all; one shared copy per photo")
    func derivativesWithoutLocation() async throws {
        let media = try await Self.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let daemon = try await RunningDaemon.startedByOwner { lib in
            for file in Self.files { try lib.copy(media + "/" + (file as NSString).lastPathComponent, to: file) }
            try lib.copy(media + "/plain.jpg", to: "Trip/plain.jpg")
            try Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x40] + Array("Exif not really".utf8)).write(to: URL(fileURLWithPath: media + "/damaged.jpg"))
            try lib.copy(media + "/damaged.jpg", to: "Trip/damaged.jpg")
        }
        let lib = daemon.library
        try await daemon.ok("app", "add", Self.hidden, "--uid", "4242")
        try await daemon.ok("app", "add", Self.shown, "--uid", "4243", "--location", "precise")
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(apps.first { $0.app == Self.hidden }?.location == "none", "none is the default for a new app")
        #expect(apps.first { $0.app == Self.shown }?.location == "precise")
        try await daemon.ok("authorize", Self.hidden, "authorized")
        try await daemon.ok("authorize", Self.shown, "authorized")

        let hiddenView = await daemon.view(Self.hidden), shownView = await daemon.view(Self.shown)
        for file in Self.files {
            let original = lib.path(file)
            #expect(await !(try Self.location(original)).isEmpty, "the test's \(file) has a location to hide")
            #expect(try await Self.location(shownView + "/" + file) == (try Self.location(original)), "precise: \(file) as it is")
            #expect(inode(shownView + "/" + file) == inode(original), "precise: the original itself")
            #expect(try await Self.location(hiddenView + "/" + file) == [], "none: no location field left in \(file)")
            #expect(inode(hiddenView + "/" + file) != inode(original), "none: \(file) does not share the original's inode")
        }
        // Everything but the metadata is the original's, byte for byte.
        #expect(try await Self.jpegImageData(hiddenView + "/Trip/photo.jpg") == (try Self.jpegImageData(lib.path("Trip/photo.jpg"))))
        #expect(try await Self.heicPixels(hiddenView + "/Trip/photo.heic") == (try Self.heicPixels(lib.path("Trip/photo.heic"))))
        #expect(try Self.mediaData(hiddenView + "/Trip/clip.mp4") == (try Self.mediaData(lib.path("Trip/clip.mp4"))))
        #expect(try Self.bytes(hiddenView + "/Trip/clip.mp4").count == (try Self.bytes(lib.path("Trip/clip.mp4"))).count,
                "the MP4 keeps every box's size")
        // Metadata that is not location stays.
        let date = try await run("/usr/bin/exiftool", ["-s3", "-DateTimeOriginal", hiddenView + "/Trip/photo.jpg"]).stdout
        #expect(date.hasPrefix("2024:07:14 10:00:00"))
        // A photo without a location is the original, linked as ever.
        #expect(inode(hiddenView + "/Trip/plain.jpg") == inode(lib.path("Trip/plain.jpg")))
        // One whose location cannot be told is left out for none, and shown to precise.
        #expect(inode(hiddenView + "/Trip/damaged.jpg") == nil)
        #expect(inode(shownView + "/Trip/damaged.jpg") == inode(lib.path("Trip/damaged.jpg")))
        // What the app is told matches its directory: the copies' sizes, nothing withheld.
        let listed = try PhotoLibConnection(socketPath: lib.socket, receiveTimeout: 30)
            .call(.list, OptionalAppParams(app: Self.hidden), returning: ListResult.self)
        #expect(Set(listed.assets.map(\.entry)) == ["Trip/photo.jpg", "Trip/photo.heic", "Trip/clip.mp4", "Trip/plain.jpg"])
        for asset in listed.assets {
            #expect(asset.size == size(hiddenView + "/" + asset.entry), "list's size of \(asset.entry) is the entry's")
        }

        // One derivative per photo, shared by every app without location.
        let other = "org.example.Frame"
        try await daemon.ok("app", "add", other, "--uid", "4244")
        try await daemon.ok("authorize", other, "limited")
        try await daemon.ok("select", other, "Trip/photo.jpg")
        let id = try #require(try await daemon.appIDs(other)["Trip/photo.jpg"])
        #expect(await inode(daemon.view(other) + "/\(id).jpg") == inode(hiddenView + "/Trip/photo.jpg"))
        let status = try await daemon.status()
        #expect(status.withheldFromNoLocation == 1, "the damaged JPEG")
        let withheld = try await daemon.assetInfos("--withheld")
        #expect(withheld.map(\.path) == ["Trip/damaged.jpg"])
        #expect(withheld.first?.withheld?.contains("metadata") == true, "\(String(describing: withheld.first?.withheld))")
        #expect(try await daemon.ok("assets", "--withheld").contains("left out of the views of apps with location none"))
        let doctor = try await daemon.ctl("doctor").stdout
        #expect(doctor.contains("location-withheld") && doctor.contains("Trip/damaged.jpg"), "\(doctor)")
        #expect(status.derivatives == 3)
        #expect((status.derivativeBytes ?? 0) > 0)
        #expect(try await daemon.ok("status").contains("no-location copies: 3"))

        // An edit of the original, in place, reaches the derivative; the precise app sees the new place.
        let events = try EventReader(daemon, app: Self.hidden)
        let edit = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original_in_place", "-GPSLatitude=40.4168", "-XMP:Title=Edited",
                                                 lib.path("Trip/photo.jpg")])
        #expect(edit.status == 0, "\(edit.stderr)")
        try await waitUntil("the edit reaches the derivative") {
            try await run("/usr/bin/exiftool", ["-s3", "-XMP:Title", hiddenView + "/Trip/photo.jpg"]).stdout.hasPrefix("Edited")
        }
        #expect(try await Self.location(hiddenView + "/Trip/photo.jpg") == [])
        #expect(try await Self.location(shownView + "/Trip/photo.jpg").contains { $0.contains("40 deg") })
        var changed: ViewAsset?
        while changed == nil { changed = try await events.nextChange().changed.first { $0.entry == "Trip/photo.jpg" } }
        #expect(changed?.size == size(hiddenView + "/Trip/photo.jpg"), "the change event tells the new copy's size")
        #expect(await inode(daemon.view(other) + "/\(id).jpg") == inode(hiddenView + "/Trip/photo.jpg"), "both apps follow the new derivative")

        // The policy changes with app set, at once; derivatives no view needs are removed.
        try await daemon.ok("app", "set", Self.shown, "--location", "none")
        #expect(try await Self.location(shownView + "/Trip/clip.mp4") == [])
        #expect(inode(shownView + "/Trip/clip.mp4") == inode(hiddenView + "/Trip/clip.mp4"))
        try await daemon.ok("app", "set", Self.shown, "--location", "precise")
        try await daemon.ok("app", "set", Self.hidden, "--location", "precise")
        #expect(inode(hiddenView + "/Trip/clip.mp4") == inode(lib.path("Trip/clip.mp4")))
        #expect(try await daemon.status().derivatives == 1, "only the Frame's photo.jpg is still needed")
        try await daemon.ok("app", "remove", other)
        #expect(try await daemon.status().derivatives == 0)
        #expect(lib.entries(lib.views + "/.derivatives").isEmpty)

        // A withheld file that goes is no longer counted.
        try await daemon.ok("app", "set", Self.hidden, "--location", "none")
        #expect(try await daemon.status().withheldFromNoLocation == 1)
        unlink(lib.path("Trip/damaged.jpg"))
        try await waitUntil("the damaged file to be gone from the count") { try await daemon.status().withheldFromNoLocation == 0 }

        let bad = try await daemon.ctl("app", "set", Self.shown, "--location", "fuzzy")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("not a location policy"))
    }

    @Test("a Canon CR3 placed by its GPS block (CMT4), which exiv2 0.27 cannot read: an app with location none gets a copy where exiftool finds no GPS, every other byte the original's; a precise app gets the original")
    func canonRawWithoutLocation() async throws {
        let media = try await Self.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.copy(media + "/photo.cr3", to: "Raw/IMG_0001.CR3")
        }
        let lib = daemon.library
        try await daemon.ok("app", "add", Self.hidden, "--uid", "4242")
        try await daemon.ok("app", "add", Self.shown, "--uid", "4243", "--location", "precise")
        try await daemon.ok("authorize", Self.hidden, "authorized")
        try await daemon.ok("authorize", Self.shown, "authorized")
        let original = lib.path("Raw/IMG_0001.CR3")
        let hidden = await daemon.view(Self.hidden) + "/Raw/IMG_0001.CR3", shown = await daemon.view(Self.shown) + "/Raw/IMG_0001.CR3"
        #expect(try await Self.location(original).contains { $0.contains("GPSLatitude") }, "the test's CR3 has a location to hide")
        #expect(inode(shown) == inode(original), "precise: the original itself")
        #expect(inode(hidden) != nil && inode(hidden) != inode(original), "none: a copy of its own")
        #expect(try await Self.location(hidden) == [], "none: exiftool finds no GPS field in the copy")
        // The GPS block became a free box of the same size; nothing else moved.
        let before = try Self.bytes(original), after = try Self.bytes(hidden)
        #expect(before.count == after.count)
        let differing = (0..<min(before.count, after.count)).filter { before[$0] != after[$0] }
        let blockAt = try #require((0..<before.count - 4).first { before[$0..<$0 + 4].elementsEqual("CMT4".utf8) })
        let blockLength = Int(before[blockAt - 4]) << 24 | Int(before[blockAt - 3]) << 16 | Int(before[blockAt - 2]) << 8 | Int(before[blockAt - 1])
        #expect(differing.allSatisfy { $0 >= blockAt && $0 < blockAt - 4 + blockLength }, "only the GPS block changed")
        #expect(after[blockAt..<blockAt + 4].elementsEqual("free".utf8))
        #expect(try await daemon.status().withheldFromNoLocation == 0)
    }

    @Test("a geotagged photo its owner may not read is left out for an app without location and named as such; chmod u+r brings its copy, and the app hears it")
    func unreadableByOwner() async throws {
        let media = try await Self.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.copy(media + "/photo.jpg", to: "Trip/photo.jpg")
            try lib.copy(media + "/plain.jpg", to: "Trip/plain.jpg")
            chmod(lib.path("Trip/photo.jpg"), 0o200)
        }
        let lib = daemon.library
        try await daemon.ok("app", "add", Self.hidden, "--uid", "4242")
        try await daemon.ok("authorize", Self.hidden, "authorized")
        let view = await daemon.view(Self.hidden)
        #expect(inode(view + "/Trip/plain.jpg") == inode(lib.path("Trip/plain.jpg")))
        #expect(inode(view + "/Trip/photo.jpg") == nil, "whether it holds a location cannot be told")
        // What the app is told matches its directory.
        let connection = try PhotoLibConnection(socketPath: lib.socket, receiveTimeout: 30)
        let listed = try connection.call(.list, OptionalAppParams(app: Self.hidden), returning: ListResult.self)
        #expect(listed.assets.map(\.entry) == ["Trip/plain.jpg"])
        // Named for what it is, with what to do: not taken for a file that changed while it was read.
        #expect(try await daemon.status().withheldFromNoLocation == 1)
        let withheld = try await daemon.assetInfos("--withheld")
        #expect(withheld.map(\.path) == ["Trip/photo.jpg"])
        let reason = withheld.first?.withheld ?? ""
        #expect(reason.contains("may not read") && reason.contains("chmod u+r"), "\(reason)")
        #expect(daemon.log.contains("photo.jpg is left out of the views of apps that may not see locations: the library's owner may not read it"),
                "the log says why, as it does for every withheld file: \(daemon.log)")

        // The owner makes it readable: the copy without location appears, and the app is told.
        let events = try EventReader(daemon, app: Self.hidden)
        chmod(lib.path("Trip/photo.jpg"), 0o644)
        var inserted: ViewAsset?
        while inserted == nil { inserted = try await events.nextChange().inserted.first { $0.entry == "Trip/photo.jpg" } }
        #expect(inode(view + "/Trip/photo.jpg") != nil && inode(view + "/Trip/photo.jpg") != inode(lib.path("Trip/photo.jpg")))
        #expect(try await Self.location(view + "/Trip/photo.jpg") == [])
        #expect(inserted?.size == size(view + "/Trip/photo.jpg"), "the event tells the copy's size")
        #expect(try await daemon.status().withheldFromNoLocation == 0)
        #expect(try await daemon.assetInfos("--withheld").isEmpty)
    }

    @Test("a pick honours the policy: a none app is handed the copy without location; a file whose location cannot be told is not handed over")
    func pickWithoutLocation() async throws {
        let media = try await Self.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.copy(media + "/photo.jpg", to: "photo.jpg")
            try lib.copy(media + "/plain.jpg", to: "plain.jpg")
            // A JPEG header and then nothing a decoder could read: whether it holds a location cannot be told.
            try Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x40] + Array("Exif not really".utf8)).write(to: URL(fileURLWithPath: media + "/damaged.jpg"))
            try lib.copy(media + "/damaged.jpg", to: "damaged.jpg")
        }
        try await daemon.ok("app", "add", Self.hidden, "--uid", String(try #require(daemon.library.owner).uid))
        let endpoint = try #require(try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8)).first?.endpoint)
        let picking = onThread { () throws -> (PickResult, [[UInt8]]) in
            let connection = try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60)
            let picked = try connection.pick(types: [.image], limit: 0, ordered: true)
            return (picked.result, try picked.handles.map { Array(try $0.readToEnd() ?? Data()) })
        }
        var request: Int64?
        try await waitUntil("the pick to be pending", timeout: 30) {
            request = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first?.request
            return request != nil
        }
        let number = String(try #require(request))
        let refused = try await daemon.ctl("answer", number, "damaged.jpg")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cannot be told"), "\(refused.stderr)")
        try await daemon.ok("answer", number, "photo.jpg", "plain.jpg")
        let (result, contents) = try await picking.value
        #expect(result.assets.map { $0.files[0].name } == ["photo.jpg", "plain.jpg"])
        #expect(result.assets.map { $0.files[0].size } == contents.map { Int64($0.count) }, "sizes are those of the files handed over")
        let received = media + "/received.jpg"
        try Data(contents[0]).write(to: URL(fileURLWithPath: received))
        #expect(try await Self.location(received) == [], "the picked photo has no location")
        #expect(try await Self.jpegImageData(received) == (try Self.jpegImageData(daemon.library.path("photo.jpg"))))
        #expect(contents[1] == (try Self.bytes(daemon.library.path("plain.jpg"))), "a photo without location is handed over as it is")
    }
}
