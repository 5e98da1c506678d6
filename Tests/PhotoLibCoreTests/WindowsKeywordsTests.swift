@testable import PhotoLibCore
import Testing

/// Windows' keyword field, as exiv2 prints it (its UTF-16 bytes' numbers), read back to keywords.
@Suite("Windows' keywords")
struct WindowsKeywordsTests {
    /// exiv2's printing of `text` as Windows writes it: UTF-16 little-endian, a NUL at the end.
    static func printed(_ text: String) -> String {
        (Array(text.utf16) + [0]).flatMap { [String($0 & 0xFF), String($0 >> 8)] }.joined(separator: " ")
    }

    @Test("the keywords between semicolons, spaces trimmed, non-ASCII names too; text after the NUL is not the field's")
    func keywords() {
        #expect(WindowsKeywords.keywords(inExiv2Bytes: Self.printed("Alice Martin; beach;Chloé Durand;;")) == ["Alice Martin", "beach", "Chloé Durand"])
        #expect(WindowsKeywords.keywords(inExiv2Bytes: Self.printed("sea") + " 66 0") == ["sea"])
        #expect(WindowsKeywords.keywords(inExiv2Bytes: "") == [])
        #expect(WindowsKeywords.keywords(inExiv2Bytes: "not bytes") == [], "not exiv2's printing of bytes")
    }

    @Test("it names someone only by a whole keyword")
    func namesSomeone() {
        let field = Self.printed("Alice Martin;beach")
        #expect(WindowsKeywords.namesSomeone(field, among: ["Bob Leroy", "Alice Martin"]))
        #expect(!WindowsKeywords.namesSomeone(field, among: ["Alice"]), "a part of a keyword is not a name")
        #expect(!WindowsKeywords.namesSomeone(Self.printed("beach;sea"), among: ["Alice Martin"]))
    }
}
