import Foundation
import Glibc
import Testing
import TestSupport

/// photolibd-thumbnailer decodes HEIC's pictures with photolibd's decoder for libheif (libde265 with
/// a worker thread per core), and gets the very pixels libheif's own decoder gives `vips copy`.
@Suite("HEIC decoded by photolibd's decoder")
struct HEVCDecoderTests {
    static var converter: String { RunningDaemon.buildDirectory + "/photolibd-thumbnailer" }

    /// Runs a tool, failing with what it printed.
    @discardableResult
    static func tool(_ executable: String, _ arguments: [String]) async throws -> String {
        let result = try await run(executable, arguments)
        guard result.status == 0 else { throw TestFailure("\(executable) \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// The largest difference between two images' pixels, as vips measures it.
    static func largestDifference(_ one: String, _ other: String, in directory: String) async throws -> Double {
        try await tool("/usr/bin/vips", ["subtract", one, other, directory + "/difference.v"])
        try await tool("/usr/bin/vips", ["abs", directory + "/difference.v", directory + "/absolute.v"])
        return await Double(try tool("/usr/bin/vips", ["max", directory + "/absolute.v"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }

    @Test("the converter says it decodes HEVC with photolibd's decoder, and a HEIC of 8 bits (4:2:0, as phones write), of 10 bits and of 4:4:4 becomes the JPEG vips copy makes with libheif's own, pixel for pixel")
    func samePixelsAsLibheifsOwn() async throws {
        #expect(try await Self.tool(Self.converter, ["--version"]).contains("HEVC decoder: photolibd-libde265"))
        var template = Array("/tmp/photolibd-hevc-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        RunRecord.madeDirectory(directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A noisy picture (the encoder has work to do), as 8 bits and as 16 bits for a 10-bit HEIC.
        try await Self.tool("/usr/bin/vips", ["gaussnoise", directory + "/noise.v", "1280", "960", "--sigma", "30", "--mean", "128"])
        try await Self.tool("/usr/bin/vips", ["bandjoin", "\(directory)/noise.v \(directory)/noise.v \(directory)/noise.v", directory + "/rgb.v"])
        try await Self.tool("/usr/bin/vips", ["copy", directory + "/rgb.v", directory + "/source.jpg[Q=92]"])
        try await Self.tool("/usr/bin/vips", ["linear", directory + "/rgb.v", directory + "/wide.v", "256", "0"])
        try await Self.tool("/usr/bin/vips", ["cast", directory + "/wide.v", directory + "/wide16.v", "ushort"])
        try await Self.tool("/usr/bin/vips", ["copy", directory + "/wide16.v", directory + "/source16.png", "--interpretation", "rgb16"])
        let variants: [(name: String, arguments: [String])] = [
            ("phone.heic", ["-q", "60", directory + "/source.jpg"]),
            ("ten-bits.heic", ["-q", "60", directory + "/source16.png"]),
            ("full-chroma.heic", ["-q", "60", "-p", "chroma=444", directory + "/source.jpg"]),
        ]
        for variant in variants {
            let heic = directory + "/" + variant.name
            try await Self.tool("/usr/bin/heif-enc", variant.arguments + ["-o", heic])
            let ours = heic + ".ours.jpg", theirs = heic + ".vips.jpg"
            try await Self.tool("/bin/sh", ["-c", "exec \"$0\" --to-jpeg < \"$1\" > \"$2\"", Self.converter, heic, ours])
            try await Self.tool("/usr/bin/vips", ["copy", heic, theirs + "[Q=90]"])
            #expect(try await Self.tool("/usr/bin/vipsheader", [ours]).contains("1280x960"), "\(variant.name)")
            #expect(try await Self.largestDifference(ours, theirs, in: directory) == 0, "\(variant.name): the same pixels as libheif's own decoder gives")
        }
    }
}
