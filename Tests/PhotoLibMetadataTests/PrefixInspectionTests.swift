import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibMetadata
import PhotoLibSystem
import Testing
import TestSupport

/// `LocationStripper.inspect` reads a file's first 128 KiB once and has exiv2 read the metadata
/// from those bytes; only when they cannot tell (a prefix of a format whose metadata may lie
/// anywhere, or one that ends before a JPEG's metadata does) does exiv2 read the file itself.
/// Either way the answer is the file's: checked against exiv2 reading the whole file.
@Suite("Reading a file's metadata from its first bytes")
struct PrefixInspectionTests {
    /// The Eiffel Tower, as the photos are geotagged.
    static let latitude = 48.8584, longitude = 2.2945

    final class Photos {
        let root: String

        init() throws {
            root = try makeTemporaryDirectory("photolibd-prefix")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Runs a tool, failing the test with what it printed.
        func run(_ tool: String, _ arguments: [String]) async throws {
            try await ChildProcess.runSuccessfully(tool, arguments)
        }

        /// A picture of `width`×`height` noise (which compresses badly: the file is large), geotagged.
        func geotagged(_ name: String, width: Int, height: Int) async throws -> String {
            let path = root + "/" + name
            try await run("/usr/bin/vips", ["gaussnoise", path, String(width), String(height)])
            try await run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-GPSLatitude=\(PrefixInspectionTests.latitude)", "-GPSLatitudeRef=N",
                                          "-GPSLongitude=\(PrefixInspectionTests.longitude)", "-GPSLongitudeRef=E",
                                          "-DateTimeOriginal=2024:07:14 10:00:00", path])
            return path
        }

        func bytes(_ path: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    struct TestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// What `LocationStripper.inspect` finds in the file, and what exiv2 finds reading the whole file by its path.
    static func bothReadings(_ path: String) throws -> (LocationStripper.Finding, Exiv2Metadata.Inspection?) {
        let fd = try opened(path)
        defer { fd.close() }
        return (try LocationStripper.inspect(fd), try Exiv2Metadata.inspect(path: path))
    }

    static func opened(_ path: String) throws -> FileDescriptor {
        let raw = open(path, O_RDONLY | O_CLOEXEC)
        guard raw >= 0 else { throw SystemCallError("open", errno: errno) }
        return FileDescriptor(rawValue: raw)
    }

    static func isTheTower(_ coordinate: GeoCoordinate?) -> Bool {
        guard let coordinate else { return false }
        return abs(coordinate.latitude - latitude) < 1e-4 && abs(coordinate.longitude - longitude) < 1e-4
    }

    @Test("a small JPEG is read whole from its bytes: place and date as exiv2 reads them from the file")
    func smallJPEG() async throws {
        let photos = try Photos()
        let path = try await photos.geotagged("small.jpg", width: 64, height: 48)
        let bytes = try photos.bytes(path)
        #expect(bytes.count < LocationStripper.prefixLength)
        guard case .inspected(let inspection)? = Exiv2Metadata.inspect(prefix: bytes, whole: true) else {
            Issue.record("the whole file's bytes were not read")
            return
        }
        #expect(Self.isTheTower(inspection.coordinate))
        let (finding, file) = try Self.bothReadings(path)
        #expect(finding.hasLocation && Self.isTheTower(finding.coordinate) && finding.captureDate == "2024:07:14 10:00:00")
        #expect(file?.coordinate == finding.coordinate && file?.captureDate == finding.captureDate)
    }

    @Test("a large JPEG is read from its first 128 KiB, its metadata being before its image data")
    func largeJPEG() async throws {
        let photos = try Photos()
        let path = try await photos.geotagged("large.jpg", width: 1200, height: 900)
        let bytes = try photos.bytes(path)
        #expect(bytes.count > 2 * LocationStripper.prefixLength, "the test photo is large: \(bytes.count) bytes")
        guard case .inspected(let inspection)? = Exiv2Metadata.inspect(prefix: Array(bytes.prefix(LocationStripper.prefixLength)), whole: false) else {
            Issue.record("the JPEG's first bytes were not enough")
            return
        }
        #expect(Self.isTheTower(inspection.coordinate) && inspection.locationFields > 0)
        let (finding, file) = try Self.bothReadings(path)
        #expect(Self.isTheTower(finding.coordinate) && file?.coordinate == finding.coordinate && file?.locationFields == inspection.locationFields)
    }

    @Test("a JPEG whose location comes after 180 KB of other segments: its first bytes cannot tell, and the file is read")
    func locationPastThePrefix() async throws {
        let photos = try Photos()
        let tagged = try await photos.bytes(try photos.geotagged("tagged.jpg", width: 64, height: 48))
        // Three application segments (APP15, 60,000 bytes each) between the start marker and the Exif segment.
        var padded: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<3 {
            let length = 60_002
            padded += [0xFF, 0xEF, UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8](repeating: 0x41, count: length - 2)
        }
        padded += tagged.dropFirst(2)
        let path = photos.root + "/padded.jpg"
        try Data(padded).write(to: URL(fileURLWithPath: path))
        #expect(Exiv2Metadata.inspect(prefix: Array(padded.prefix(LocationStripper.prefixLength)), whole: false) == nil,
                "a prefix that ends before the metadata does is no answer")
        let (finding, file) = try Self.bothReadings(path)
        #expect(finding.hasLocation && Self.isTheTower(finding.coordinate), "the location is found in the file: \(finding)")
        #expect(file?.coordinate == finding.coordinate)
    }

    @Test("a large TIFF, whose metadata may lie anywhere, is read from the file")
    func largeTIFF() async throws {
        let photos = try Photos()
        let path = try await photos.geotagged("large.tif", width: 400, height: 300)
        let bytes = try photos.bytes(path)
        #expect(bytes.count > LocationStripper.prefixLength)
        #expect(Exiv2Metadata.inspect(prefix: Array(bytes.prefix(LocationStripper.prefixLength)), whole: false) == nil)
        let (finding, file) = try Self.bothReadings(path)
        #expect(finding.hasLocation && Self.isTheTower(finding.coordinate) && file?.coordinate == finding.coordinate)
    }

    @Test("a file in no format exiv2 knows, read whole, has no location; a JPEG cut short is read from the file, which fails the same way")
    func unknownAndCut() async throws {
        let photos = try Photos()
        #expect(Exiv2Metadata.inspect(prefix: Array("just text, named .jpg".utf8), whole: true).map { if case .unknownFormat = $0 { true } else { false } } == true)
        let tagged = try await photos.bytes(try photos.geotagged("whole.jpg", width: 64, height: 48))
        let path = photos.root + "/cut.jpg"
        try Data(tagged.prefix(40)).write(to: URL(fileURLWithPath: path))
        #expect(Exiv2Metadata.inspect(prefix: Array(tagged.prefix(40)), whole: true) == nil)
        let fd = try Self.opened(path)
        defer { fd.close() }
        #expect(throws: DerivativeProblem.self) { try LocationStripper.inspect(fd) }
        #expect(throws: DerivativeProblem.self) { try Exiv2Metadata.inspect(path: path) }
    }
}
