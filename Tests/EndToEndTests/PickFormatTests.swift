import Foundation
import Glibc
import PhotoLibProtocol
import Testing

/// A format the app can read: an app that says which types it reads gets a JPEG made from a photo
/// in another type (libvips, in `photolibd-thumbnailer --to-jpeg`), with the same metadata rules.
@Suite("A format the app can read", .serialized)
struct PickFormatTests {
    static let app = (id: "org.example.Printer", uid: 4263)

    /// The app picks with `--accepts accepts`; the person answers `answer`. What the app printed, and its saved files.
    func pick(_ daemon: RunningDaemon, accepts: String, answer: [String]) async throws -> (file: [String: Any], saved: String) {
        let save = daemon.library.root + "/received-\(UInt32.random(in: 0..<UInt32.max))"
        try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true)
        chown(save, uid_t(Self.app.uid), gid_t(Self.app.uid))
        let command = ["/usr/bin/setpriv", "--reuid=\(Self.app.uid)", "--regid=\(Self.app.uid)", "--clear-groups", "/usr/bin/python3",
                       try ReachableCopies.example("pick_photos.py"), "--socket", daemon.library.socket, "--save", save, "--accepts", accepts]
        let run = try await PickTests().runAnswering(daemon, command, answer: answer)
        #expect(run.status == 0, "\(run.output)")
        let picked = try #require(PickTests().step(run.lines, "picked"), "\(run.output); the daemon: \(daemon.log.suffix(2000))")
        let file = try #require(((picked["assets"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])?.first)
        let saved = try #require(try FileManager.default.contentsOfDirectory(atPath: save).first)
        return (file, save + "/" + saved)
    }

    static func firstBytes(_ path: String, _ count: Int) -> [UInt8] {
        Array((FileManager.default.contents(atPath: path) ?? Data()).prefix(count))
    }

    @Test("an app that reads only JPEG picks a HEIC: it gets IMG_1.jpg, a JPEG that decodes, without location, serial or caption; one that reads HEIC gets the HEIC; a raw file it cannot read is refused with why, and the pick waits")
    func heicBecomesJPEG() async throws {
        let daemon = try await PageTests.startedWithPhotos(["Trip/photo.jpg", "Trip/source.jpg"]) { lib in
            chmod(lib.root, 0o711)  // like /home: the app passes through to the socket, and sees no file
            let source = lib.path("Trip/source.jpg")
            let tagged = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original_in_place", "-SerialNumber=CAM-0042",
                                                       "-ImageDescription=Alice at the beach", "-GPSLatitude=48.112", "-GPSLatitudeRef=N",
                                                       "-GPSLongitude=1.68", "-GPSLongitudeRef=W", source])
            guard tagged.status == 0 else { throw TestFailure("exiftool: \(tagged.stderr)") }
            let made = lib.root + "/made.heic"
            let heic = try await run("/usr/bin/heif-enc", ["-q", "60", source, "-o", made])
            guard heic.status == 0 else { throw TestFailure("heif-enc: \(heic.stderr)") }
            try lib.copy(made, to: "Trip/IMG_1.HEIC")  // the owner's, as a photo copied off a phone is
            unlink(made)
            try lib.write("Trip/raw.cr3", contents: "a camera's raw file")
        }
        #expect(try await PickMetadataTests.tags(of: daemon.library.path("Trip/IMG_1.HEIC"))["ExifIFD:SerialNumber"] as? String == "CAM-0042",
                "the HEIC carries the JPEG's Exif")
        try await daemon.ok("app", "add", Self.app.id, "--uid", String(Self.app.uid))  // location none, captions removed

        let converted = try await pick(daemon, accepts: "image/jpeg", answer: ["Trip/IMG_1.HEIC"])
        #expect(converted.file["name"] as? String == "IMG_1.jpg" && converted.file["converted"] as? String == "image/heic", "\(converted.file)")
        #expect(Self.firstBytes(converted.saved, 3) == [0xFF, 0xD8, 0xFF], "a JPEG")
        #expect(try await run("/usr/bin/vipsheader", [converted.saved]).stdout.contains("jpegload"), "that decodes")
        let tags = try await PickMetadataTests.tags(of: converted.saved)
        #expect(tags["GPS:GPSLatitude"] == nil && tags["ExifIFD:SerialNumber"] == nil && tags["IFD0:ImageDescription"] == nil,
                "the JPEG follows the same rules as the original would: \(tags)")

        let asItIs = try await pick(daemon, accepts: "image/heic,image/jpeg", answer: ["Trip/IMG_1.HEIC"])
        #expect(asItIs.file["name"] as? String == "IMG_1.HEIC" && asItIs.file["converted"] as? String == nil, "\(asItIs.file)")
        #expect(Self.firstBytes(asItIs.saved, 12).suffix(8).starts(with: Array("ftyp".utf8)), "still a HEIF file")
        #expect(try await PickMetadataTests.tags(of: asItIs.saved)["GPS:GPSLatitude"] == nil, "without location all the same")

        let jpeg = try await pick(daemon, accepts: "image/jpeg", answer: ["Trip/photo.jpg"])
        #expect(jpeg.file["name"] as? String == "photo.jpg" && jpeg.file["converted"] as? String == nil && jpeg.file["copy"] as? Bool == false,
                "a JPEG that loses nothing is the original: \(jpeg.file)")

        // Canon's CR3, of which no app-readable JPEG is made here: refused with why, and the pick waits.
        try await refusedThenAnswered(daemon, "Trip/raw.cr3", saying: ["image/x-canon-cr3", "it reads image/jpeg"], then: "Trip/photo.jpg")
    }

    /// A pick by an app reading only JPEG, answered with `refused` (the answer fails, saying each of `saying`), then with `then`.
    func refusedThenAnswered(_ daemon: RunningDaemon, _ refused: String, saying: [String], then: String) async throws {
        let output = daemon.library.root + "/refused-\(UInt32.random(in: 0..<UInt32.max)).out"
        let process = try SpawnedProcess("/usr/bin/setpriv", ["--reuid=\(Self.app.uid)", "--regid=\(Self.app.uid)", "--clear-groups", "/usr/bin/python3",
                                                             try ReachableCopies.example("pick_photos.py"), "--socket", daemon.library.socket,
                                                             "--accepts", "image/jpeg"], output: output)
        var request: Int64?
        try await waitUntil("the pick to be pending", timeout: 30, while: process) {
            request = try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests.first?.request
            return request != nil
        }
        let id = String(try #require(request))
        let answer = try await daemon.ctl("answer", id, refused)
        #expect(answer.status != 0 && saying.allSatisfy { answer.stderr.contains($0) }, "\(answer.stderr)")
        _ = try await daemon.ctlOK(["answer", id, then])
        #expect(await process.exited(timeout: 30) == 0)
    }

    @Test("a raw file picked by an app that reads only JPEG arrives as the camera's JPEG it carries: its size, the raw file's orientation and date, no serial, caption or location; one whose only JPEG is a thumbnail is refused with why, and the pick waits")
    func rawBecomesItsPreview() async throws {
        let daemon = try await PageTests.startedWithPhotos(["Trip/photo.jpg"]) { lib in
            chmod(lib.root, 0o711)
            for (name, width, height) in [("IMG_2.DNG", 1536, 1024), ("small.dng", 160, 120)] {
                let preview = lib.root + "/preview.jpg", made = lib.root + "/made.dng"
                let drawn = try await run("/usr/bin/vips", ["gaussnoise", preview + "[Q=85]", String(width), String(height)])
                guard drawn.status == 0 else { throw TestFailure("vips: \(drawn.stderr)") }
                let raw = try await run("/usr/bin/python3", [RunningDaemon.script("make-raw-with-preview"), made, preview, "6"])
                guard raw.status == 0 else { throw TestFailure("make-raw-with-preview: \(raw.stderr)") }
                let tagged = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-SerialNumber=CAM-0042", "-ImageDescription=Alice at the beach",
                                                           "-DateTimeOriginal=2024:07:14 10:00:00", "-GPSLatitude=48.112", "-GPSLatitudeRef=N",
                                                           "-GPSLongitude=1.68", "-GPSLongitudeRef=W", made])
                guard tagged.status == 0 else { throw TestFailure("exiftool: \(tagged.stderr)") }
                try lib.copy(made, to: "Trip/" + name)
                unlink(made)
                unlink(preview)
            }
        }
        let original = try await PickMetadataTests.tags(of: daemon.library.path("Trip/IMG_2.DNG"))
        #expect(original["IFD1:ThumbnailLength"] != nil && original["ExifIFD:SerialNumber"] as? String == "CAM-0042", "a raw file with its JPEG: \(original)")
        try await daemon.ok("app", "add", Self.app.id, "--uid", String(Self.app.uid))  // location none, captions removed

        let raw = try await pick(daemon, accepts: "image/jpeg", answer: ["Trip/IMG_2.DNG"])
        #expect(raw.file["name"] as? String == "IMG_2.jpg" && raw.file["converted"] as? String == "image/x-adobe-dng", "\(raw.file)")
        #expect(Self.firstBytes(raw.saved, 3) == [0xFF, 0xD8, 0xFF], "a JPEG")
        let header = try await run("/usr/bin/vipsheader", [raw.saved]).stdout
        #expect(header.contains("1536x1024") && header.contains("jpegload"), "the camera's full-size JPEG, which decodes: \(header)")
        let tags = try await PickMetadataTests.tags(of: raw.saved)
        #expect(tags["IFD0:Orientation"] as? String == "Rotate 90 CW" && tags["ExifIFD:DateTimeOriginal"] as? String == "2024:07:14 10:00:00"
                && tags["IFD0:Make"] as? String == "Testcam", "the raw file's orientation, date and camera: \(tags)")
        #expect(tags["GPS:GPSLatitude"] == nil && tags["ExifIFD:SerialNumber"] == nil && tags["IFD0:ImageDescription"] == nil,
                "the same rules as for any photo: \(tags)")

        try await refusedThenAnswered(daemon, "Trip/small.dng", saying: ["160 × 120", "a thumbnail"], then: "Trip/photo.jpg")
    }
}
