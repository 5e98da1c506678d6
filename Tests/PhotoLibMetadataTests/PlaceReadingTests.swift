import Foundation
import PhotoLibCore
@testable import PhotoLibMetadata
import PhotoLibSystem
import Testing

/// The places pass reads a JPEG's Exif GPS itself (`JpegGPS`) and asks exiv2 only when that
/// cannot tell: checked on files exiftool tagged, against exiv2 reading each whole file.
@Suite("Where a photo was taken, read for the places pass")
struct PlaceReadingTests {
    typealias Photos = PrefixInspectionTests.Photos

    /// A small JPEG tagged by exiftool with `tags`; its bytes, and where `LocationStripper.coordinate` and exiv2 place it.
    static func readings(_ photos: Photos, _ name: String, _ tags: [String]) async throws -> (bytes: [UInt8], fast: GeoCoordinate?, exiv2: GeoCoordinate?) {
        let path = photos.root + "/" + name
        try await photos.run("/usr/bin/vips", ["black", path, "64", "48"])
        if !tags.isEmpty { try await photos.run("/usr/bin/exiftool", ["-q", "-overwrite_original"] + tags + [path]) }
        let fd = try PrefixInspectionTests.opened(path)
        defer { fd.close() }
        return (try photos.bytes(path), try LocationStripper.coordinate(fd), try Exiv2Metadata.inspect(path: path)?.coordinate)
    }

    @Test("Exif GPS, in each hemisphere and either byte order, is read without exiv2 and to the same coordinate")
    func exifGPS() async throws {
        let photos = try Photos()
        let cases: [(String, [String])] = [
            ("paris.jpg", ["-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E"]),
            ("sydney.jpg", ["-GPSLatitude=33.8688", "-GPSLatitudeRef=S", "-GPSLongitude=151.2093", "-GPSLongitudeRef=E"]),
            ("saopaulo.jpg", ["-GPSLatitude=23.5505", "-GPSLatitudeRef=S", "-GPSLongitude=46.6333", "-GPSLongitudeRef=W"]),
            ("motorola.jpg", ["-ExifByteOrder=Big-endian", "-GPSLatitude=40.7128", "-GPSLatitudeRef=N", "-GPSLongitude=74.006", "-GPSLongitudeRef=W",
                              "-Make=Test", "-XMP:Title=Both", "-XMP:GPSLatitude=10", "-XMP:GPSLongitude=10"]),
        ]
        for (name, tags) in cases {
            let (bytes, fast, exiv2) = try await Self.readings(photos, name, tags)
            guard case .at(let coordinate) = JpegGPS.read(bytes) else {
                Issue.record("\(name): JpegGPS did not read its Exif GPS: \(JpegGPS.read(bytes))")
                continue
            }
            #expect(exiv2 != nil && coordinate == exiv2 && fast == exiv2, "\(name): \(coordinate) against exiv2's \(String(describing: exiv2))")
        }
    }

    @Test("a video's own position, which exiv2 does not read: ©xyz as Android's camera writes it, Apple's ISO 6709 key as an iPhone's")
    func videoPosition() async throws {
        let photos = try Photos()
        let cases: [(String, String, Double, Double)] = [
            ("android.mp4", "-UserData:GPSCoordinates=48.8584, 2.2945", 48.8584, 2.2945),
            ("iphone.mov", "-Keys:GPSCoordinates=-33.8688, 151.2093, 35", -33.8688, 151.2093),
        ]
        for (name, tag, latitude, longitude) in cases {
            let path = photos.root + "/" + name
            try await photos.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=d=0.2:s=64x48", "-pix_fmt", "yuv420p", path])
            try await photos.run("/usr/bin/exiftool", ["-q", "-overwrite_original", tag, path])
            let fd = try PrefixInspectionTests.opened(path)
            defer { fd.close() }
            let coordinate = try LocationStripper.coordinate(fd)
            #expect(coordinate.map { abs($0.latitude - latitude) < 1e-3 && abs($0.longitude - longitude) < 1e-3 } == true,
                    "\(name): \(String(describing: coordinate))")
            #expect(try LocationStripper.inspect(fd).hasLocation, "\(name): and it is location, as before")
        }
    }

    @Test("no location anywhere is nowhere without exiv2; a location in XMP alone is exiv2's, and found")
    func withoutExifGPS() async throws {
        let photos = try Photos()
        let plain = try await Self.readings(photos, "plain.jpg", [])
        #expect(JpegGPS.read(plain.bytes) == .nowhere && plain.fast == nil && plain.exiv2 == nil)
        let captioned = try await Self.readings(photos, "captioned.jpg", ["-Make=Test", "-DateTimeOriginal=2024:07:14 10:00:00", "-XMP:Title=Beach", "-IPTC:Keywords=sea"])
        #expect(JpegGPS.read(captioned.bytes) == .nowhere && captioned.fast == nil && captioned.exiv2 == nil)
        let xmp = try await Self.readings(photos, "xmp.jpg", ["-Make=Test", "-XMP:GPSLatitude=47.9960", "-XMP:GPSLongitude=-4.1020"])
        #expect(JpegGPS.read(xmp.bytes) == .undecided)
        #expect(xmp.fast != nil && xmp.fast == xmp.exiv2, "\(String(describing: xmp.fast)) against exiv2's \(String(describing: xmp.exiv2))")
    }
}
