import PhotoLibCore
import Testing

@Suite("Escaped names")
struct EscapedNameTests {
    @Test("ordinary UTF-8 names read as themselves")
    func plainNamesPassThrough() {
        #expect(EscapedName.escape(Array("Été 2024/IMG_1.jpg".utf8)) == "Été 2024/IMG_1.jpg")
    }

    @Test("invalid bytes, control characters and backslashes escape and round-trip", arguments: [
        [0x62, 0x61, 0x64, 0xFF, 0x2E, 0x6A, 0x70, 0x67],
        [0x61, 0x0A, 0x62],
        [0x5C, 0x78, 0x34, 0x31],
        [0xC3, 0x28],
        [0xED, 0xA0, 0x80],  // an encoded surrogate is not UTF-8
        [0xE2, 0x80, 0xA8],  // LINE SEPARATOR prints as an escape
    ] as [[UInt8]])
    func roundTrip(bytes: [UInt8]) {
        let escaped = EscapedName.escape(bytes)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 })
        #expect(EscapedName.unescape(escaped) == bytes)
    }

    @Test("NFC and NFD spellings stay distinct")
    func normalisationTwinsStayDistinct() {
        let nfc: [UInt8] = [0x63, 0x61, 0x66, 0xC3, 0xA9]
        let nfd: [UInt8] = [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81]
        #expect(EscapedName.unescape(EscapedName.escape(nfc)) == nfc)
        #expect(EscapedName.unescape(EscapedName.escape(nfd)) == nfd)
        #expect(FileName(bytes: nfc) != FileName(bytes: nfd))
    }

    @Test("malformed escapes are rejected", arguments: ["a\\", "a\\q", "\\x4", "\\xZZ"])
    func malformed(text: String) {
        #expect(EscapedName.unescape(text) == nil)
    }
}

@Suite("Paths")
struct RelativePathTests {
    @Test("dot components and NUL are never accepted")
    func rejectsClimbing() {
        #expect(RelativePath(escaped: "a/../b") == nil)
        #expect(RelativePath(escaped: "./a") == nil)
        #expect(RelativePath(escaped: "a\\x00b") == nil)
        #expect(RelativePath(escaped: "/a//b/")?.escaped == "a/b")
    }

    @Test("prefix replacement follows a renamed album")
    func replacingPrefix() {
        let path = RelativePath(escaped: "Trips/2024/a.jpg")!
        #expect(path.replacingPrefix(RelativePath(escaped: "Trips")!, with: RelativePath(escaped: "Voyages")!)?.escaped == "Voyages/2024/a.jpg")
        #expect(path.replacingPrefix(RelativePath(escaped: "Trip")!, with: .root) == nil)
    }

    @Test("a 255-byte name is valid, 256 is not")
    func nameLength() {
        #expect(FileName(bytes: [UInt8](repeating: 0x61, count: 255)) != nil)
        #expect(FileName(bytes: [UInt8](repeating: 0x61, count: 256)) == nil)
    }
}
