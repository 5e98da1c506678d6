import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibMetadata
import PhotoLibSystem
import Testing
import TestSupport

/// With captions and people removed, Windows' keyword field goes when it names a person found in the
/// photo, and stays when it names nobody: checked by exiftool on a copy stripped as a pick strips it.
@Suite("Windows' keywords in a photo that leaves without its people")
struct WindowsKeywordsStrippingTests {
    typealias Photos = PrefixInspectionTests.Photos

    /// A JPEG tagged by exiftool, stripped of captions and people in place; exiftool's reading of it after.
    static func stripped(_ photos: Photos, _ name: String, _ tags: [String]) async throws -> (plan: AppMetadataStripper.Plan?, after: String) {
        let path = photos.root + "/" + name
        try await photos.run("/usr/bin/vips", ["black", path, "64", "48"])
        try await photos.run("/usr/bin/exiftool", ["-q", "-overwrite_original"] + tags + [path])
        let raw = open(path, O_RDWR | O_CLOEXEC)
        guard raw >= 0 else { throw SystemCallError("open", errno: errno) }
        let fd = FileDescriptor(rawValue: raw)
        defer { fd.close() }
        let removal = MetadataRemoval(captions: true)
        let plan = try AppMetadataStripper.plan(fd, removal: removal)
        if let plan { try AppMetadataStripper.strip(fd, path: path, plan: plan, removal: removal) }
        let printed = try await ChildProcess.runSuccessfully("/usr/bin/exiftool", ["-s", "-XPKeywords", "-XMP-dc:Subject", "-XMP-iptcExt:PersonInImage", path])
        return (plan, printed)
    }

    @Test("naming a person who is in the photo, it goes with her name in the XMP keywords; naming nobody, it stays")
    func namedOrNot() async throws {
        let photos = try Photos()
        let named = try await Self.stripped(photos, "named.jpg", ["-XMP-iptcExt:PersonInImage=Alice Martin", "-XMP-dc:Subject=Alice Martin",
                                                             "-XMP-dc:Subject=beach", "-XPKeywords=Alice Martin;beach"])
        #expect(named.plan?.windowsKeywords == true)
        #expect(!named.after.contains("XPKeywords") && !named.after.contains("Alice"), "\(named.after)")
        #expect(named.after.contains("Subject") && named.after.contains("beach"), "the XMP keyword naming nobody stays: \(named.after)")

        let nobody = try await Self.stripped(photos, "nobody.jpg", ["-XMP-iptcExt:PersonInImage=Alice Martin", "-XPKeywords=beach;sea"])
        #expect(nobody.plan?.windowsKeywords == false)
        #expect(nobody.after.contains("XPKeywords") && nobody.after.contains("beach;sea") && !nobody.after.contains("Alice"), "\(nobody.after)")
    }
}
