/// Windows' own keyword field (`XPKeywords`, Exif tag 0x9C9E, written by Explorer's "Tags"): UTF-16
/// little-endian text, the keywords between semicolons, which exiv2 prints as its bytes' numbers
/// ("65 0 108 0 …").
///
/// It cannot be cleaned value by value as the XMP and IPTC lists are (exiv2 would have to write
/// it back as bytes), so with captions and people removed it goes whole when it names a person
/// (`MetadataRemoval.windowsKeywords`); a field naming nobody stays.
public enum WindowsKeywords {
    /// The keywords in exiv2's printing of the field; empty when it is not bytes of UTF-16 text.
    public static func keywords(inExiv2Bytes text: String) -> [String] {
        var bytes: [UInt8] = []
        for part in text.split(separator: " ") {
            guard let byte = UInt8(part) else { return [] }
            bytes.append(byte)
        }
        var units: [UInt16] = []
        var index = 0
        while index + 1 < bytes.count {
            units.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
            index += 2
        }
        // Windows ends the text with a NUL; anything after it is not the field's.
        let decoded = String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
        return decoded.split(separator: ";").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
    }

    /// Whether the field (exiv2's printing of it) names one of `people`.
    public static func namesSomeone(_ text: String, among people: [String]) -> Bool {
        let named = Set(people.map { $0.trimmingWhitespace })
        return keywords(inExiv2Bytes: text).contains { named.contains($0) }
    }
}
