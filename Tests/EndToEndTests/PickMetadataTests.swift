import Foundation
import Glibc
import PhotoLibProtocol
import Testing

/// What leaves with a picked photo (iOS 17's Options): location as the person chooses for the pick
/// (only where the app may have it), captions and people's names unless shared, and camera and
/// lens serial numbers never. Checked with exiftool on the bytes the app received.
@Suite("What leaves with a picked photo", .serialized)
struct PickMetadataTests {
    static let app = (id: "org.example.Printer", uid: 4262)
    static let person = "Alice Martin"

    /// A photo as a camera and a photo manager leave it: serials, a caption in three places, a
    /// face region and the person's name among its keywords, a keyword tree, and where it was taken.
    static let tags = [
        "-Make=Canon", "-Model=EOS R6", "-SerialNumber=CAM-0042", "-LensSerialNumber=LENS-0077",
        "-ImageDescription=\(person) at the beach", "-XMP-dc:Description=\(person) at the beach", "-XMP-dc:Title=Summer day",
        "-IPTC:Caption-Abstract=\(person) at the beach", "-XMP-dc:Subject=beach", "-XMP-dc:Subject=\(person)",
        "-IPTC:Keywords=beach", "-IPTC:Keywords=\(person)", "-XMP-iptcExt:PersonInImage=\(person)",
        "-XMP-lr:HierarchicalSubject=People|\(person)", "-XMP-lr:HierarchicalSubject=Places|Beach",
        "-RegionInfo={AppliedToDimensions={W=300,H=100,Unit=pixel},RegionList=[{Area={X=0.5,Y=0.5,W=0.2,H=0.4,Unit=normalized},Name=\(person),Type=Face}]}",
        "-GPSLatitude=48.112", "-GPSLatitudeRef=N", "-GPSLongitude=1.68", "-GPSLongitudeRef=W",
    ]

    /// What exiftool reads in a file: each tag's value, lists as arrays.
    static func tags(of path: String) async throws -> [String: Any] {
        let result = try await run("/usr/bin/exiftool", ["-j", "-G1", "-struct", path])
        guard result.status == 0, let first = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first else {
            throw TestFailure("exiftool could not read \(path): \(result.stderr)")
        }
        return first
    }

    static func list(_ value: Any?) -> [String] {
        if let many = value as? [Any] { return many.map { "\($0)" } }
        return value.map { ["\($0)"] } ?? []
    }

    /// Picks `asset` as the app and answers with `options`; the saved bytes' tags, and whether the app was told it got a copy.
    func pick(_ daemon: RunningDaemon, _ options: [String], asset: String = "Trip/photo.jpg") async throws -> (tags: [String: Any], copy: Bool?, file: String) {
        let save = daemon.library.root + "/received-\(UInt32.random(in: 0..<UInt32.max))"
        try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true)
        chown(save, uid_t(Self.app.uid), gid_t(Self.app.uid))
        let examples = try ReachableCopies.examples()
        let command = ["/usr/bin/setpriv", "--reuid=\(Self.app.uid)", "--regid=\(Self.app.uid)", "--clear-groups",
                       "/usr/bin/python3", examples + "/pick_photos.py", "--socket", daemon.library.socket, "--save", save]
        let run = try await PickTests().runAnswering(daemon, command, answer: [asset] + options)
        #expect(run.status == 0, "\(run.output)")
        let picked = try #require(PickTests().step(run.lines, "picked"), "\(run.output); the daemon: \(daemon.log.suffix(2000))")
        let file = try #require(((picked["assets"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])?.first)
        let saved = try #require(try FileManager.default.contentsOfDirectory(atPath: save).first)
        return await (try Self.tags(of: save + "/" + saved), file["copy"] as? Bool, save + "/" + saved)
    }

    @Test("by the app's settings, then as the person chooses per pick: serials never leave; captions and people only when shared; location only when chosen, and only for an app that may have it")
    func whatLeavesWithAPick() async throws {
        let daemon = try await PageTests.startedWithPhotos(["Trip/photo.jpg"]) { lib in
            chmod(lib.root, 0o711)  // like /home: the app passes through to the socket, and sees no file
            let result = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original_in_place"] + Self.tags + [lib.path("Trip/photo.jpg")])
            guard result.status == 0 else { throw TestFailure("exiftool failed: \(result.stderr)") }
        }
        let original = try await Self.tags(of: daemon.library.path("Trip/photo.jpg"))
        #expect(original["ExifIFD:SerialNumber"] as? String == "CAM-0042" && original["XMP-iptcExt:PersonInImage"] != nil, "the test photo: \(original)")
        try await daemon.ok("app", "add", Self.app.id, "--uid", String(Self.app.uid), "--location", "precise")
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        #expect(apps.first { $0.app == Self.app.id }?.captions == "removed", "captions are removed by default")

        // The app's settings: location precise, captions removed.
        let byDefault = try await pick(daemon, [])
        #expect(byDefault.copy == true, "a photo that loses something arrives as a copy, even for an app with a uid of its own")
        let tags = byDefault.tags
        #expect(tags["ExifIFD:SerialNumber"] == nil && tags["ExifIFD:LensSerialNumber"] == nil, "no serial number ever: \(tags)")
        #expect(tags["GPS:GPSLatitude"] != nil, "the app may have location, and the person did not say otherwise: \(tags)")
        for caption in ["IFD0:ImageDescription", "XMP-dc:Description", "XMP-dc:Title", "IPTC:Caption-Abstract", "XMP-iptcExt:PersonInImage",
                        "XMP-lr:HierarchicalSubject", "XMP-mwg-rs:RegionInfo"] {
            #expect(tags[caption] == nil, "\(caption) is gone: \(tags[caption] ?? "")")
        }
        #expect(Self.list(tags["XMP-dc:Subject"]) == ["beach"], "the person's name leaves the keywords, the beach stays: \(tags)")
        #expect(Self.list(tags["IPTC:Keywords"]) == ["beach"], "\(tags)")
        #expect(tags["IFD0:Make"] as? String == "Canon" && tags["IFD0:Model"] as? String == "EOS R6", "the camera's make and model stay")
        #expect(try await run("/usr/bin/vipsheader", [byDefault.file]).status == 0, "and it is still a photo")

        // This pick: location off, captions and people on.
        let chosen = try await pick(daemon, ["--location", "off", "--captions", "on"])
        #expect(chosen.tags["GPS:GPSLatitude"] == nil && chosen.tags["XMP-exif:GPSLatitude"] == nil, "location off for this pick: \(chosen.tags)")
        #expect(chosen.tags["XMP-dc:Description"] as? String == "\(Self.person) at the beach", "\(chosen.tags)")
        #expect(Set(Self.list(chosen.tags["XMP-dc:Subject"])) == ["beach", Self.person], "\(chosen.tags)")
        #expect(chosen.tags["XMP-mwg-rs:RegionInfo"] != nil, "the face region stays when people are shared")
        #expect(chosen.tags["ExifIFD:SerialNumber"] == nil, "a serial number never leaves, whatever is chosen")

        // The app's setting changes what a pick shares when the person says nothing.
        #expect(try await daemon.ok("app", "set", Self.app.id, "--captions", "shared").contains("captions and people's names are shared"))
        let shared = try await pick(daemon, [])
        #expect(shared.tags["IPTC:Caption-Abstract"] as? String == "\(Self.person) at the beach", "\(shared.tags)")
        #expect(shared.tags["GPS:GPSLatitude"] != nil && shared.tags["ExifIFD:LensSerialNumber"] == nil, "\(shared.tags)")

        // Location cannot be chosen for an app that may not have it: an error that says what to do, and the pick waits on.
        try await daemon.ok("app", "set", Self.app.id, "--location", "none")
        let save = daemon.library.root + "/refused"
        try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true)
        let examples = try ReachableCopies.examples()
        let process = try SpawnedProcess("/usr/bin/setpriv", ["--reuid=\(Self.app.uid)", "--regid=\(Self.app.uid)", "--clear-groups",
                                                             "/usr/bin/python3", examples + "/pick_photos.py", "--socket", daemon.library.socket],
                                         output: daemon.library.root + "/refused.out")
        var request: Int64?
        try await waitUntil("the pick to be pending", timeout: 30, while: process) {
            request = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first?.request
            return request != nil
        }
        let id = String(try #require(request))
        let refused = try await daemon.ctl("answer", id, "Trip/photo.jpg", "--location", "on")
        #expect(refused.status != 0 && refused.stderr.contains("may not have location") && refused.stderr.contains("photolibctl app set \(Self.app.id) --location precise"),
                "\(refused.stderr)")
        _ = try await daemon.ctlOK(["answer", id, "Trip/photo.jpg"])
        #expect(await process.exited(timeout: 30) == 0)
        #expect(daemon.log.contains("1 assets handed to \(Self.app.id) once"), "the pick waited for a right answer")
    }

    @Test("a Canon CR3, which exiv2 cannot write, leaves without its body's, lens's and Canon's serial numbers and, unless shared, its caption; nothing else in it changes")
    func canonRawPick() async throws {
        let media = try await LocationTests.media()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", media]) }
        let daemon = try await PageTests.startedWithPhotos([]) { lib in
            chmod(lib.root, 0o711)
            try lib.copy(media + "/photo.cr3", to: "Raw/IMG_0001.CR3")
        }
        let originalPath = daemon.library.path("Raw/IMG_0001.CR3")
        let original = try await Self.tags(of: originalPath)
        let serials = ["ExifIFD:SerialNumber", "ExifIFD:LensSerialNumber", "Canon:SerialNumber", "Canon:InternalSerialNumber", "Canon:LensSerialNumber"]
        #expect(serials.allSatisfy { original[$0] != nil } && original["IFD0:ImageDescription"] != nil && original["ExifIFD:UserComment"] != nil,
                "the test's CR3 holds what is to go: \(original)")
        try await daemon.ok("app", "add", Self.app.id, "--uid", String(Self.app.uid))

        // The app's settings: no location, captions removed.
        let byDefault = try await pick(daemon, [], asset: "Raw/IMG_0001.CR3")
        #expect(byDefault.copy == true)
        for tag in serials + ["IFD0:ImageDescription", "ExifIFD:UserComment", "GPS:GPSLatitude"] {
            #expect(byDefault.tags[tag] == nil, "\(tag) is gone: \(byDefault.tags[tag] ?? "")")
        }
        for tag in ["IFD0:Make", "IFD0:Model", "ExifIFD:ExposureTime", "ExifIFD:LensModel", "Canon:CanonImageType"] {
            #expect(byDefault.tags[tag] as? String == original[tag] as? String, "\(tag) stays: \(byDefault.tags)")
        }
        // Only the metadata blocks changed: every byte of the image data, and the boxes, where it was.
        let before = try LocationTests.bytes(originalPath), after = try LocationTests.bytes(byDefault.file)
        #expect(before.count == after.count)
        let blocks = (1...4).map { number -> Range<Int> in
            let name = Array("CMT\(number)".utf8)
            let at = (0..<before.count - 4).first { before[$0..<$0 + 4].elementsEqual(name) } ?? 0
            let length = Int(before[at - 4]) << 24 | Int(before[at - 3]) << 16 | Int(before[at - 2]) << 8 | Int(before[at - 1])
            return at - 4..<at - 4 + length
        }
        let differing = (0..<min(before.count, after.count)).filter { before[$0] != after[$0] }
        #expect(!differing.isEmpty && differing.allSatisfy { index in blocks.contains { $0.contains(index) } }, "only CMT1-CMT4 changed")
        #expect(try LocationTests.mediaData(originalPath) == LocationTests.mediaData(byDefault.file))

        // Captions shared for this pick: they come, and no serial does.
        let shared = try await pick(daemon, ["--captions", "on"], asset: "Raw/IMG_0001.CR3")
        #expect(shared.tags["IFD0:ImageDescription"] as? String == "Ana at the beach" && shared.tags["ExifIFD:UserComment"] as? String == "Ana at the beach",
                "\(shared.tags)")
        #expect(serials.allSatisfy { shared.tags[$0] == nil }, "\(shared.tags)")
        #expect(try await Self.tags(of: originalPath)["Canon:SerialNumber"] != nil, "the original keeps everything")
    }
}
