/// The text fields of a PNG (its `tEXt` chunks), read without decoding a pixel.
///
/// The freedesktop thumbnail cache keeps Thumb::URI and Thumb::MTime there;
/// the page server checks them on the bytes it is about to send, so a cached
/// thumbnail costs one read and no image library.
public enum PNGText {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The value of the `tEXt` field `keyword`, or nil when the bytes are not a PNG or have no such field.
    /// Fields after the first image data are not read: the standard puts its fields before it.
    public static func value(of keyword: String, in png: [UInt8]) -> String? {
        guard png.count >= 8, Array(png[0..<8]) == signature else { return nil }
        let wanted = Array(keyword.utf8)
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = png[offset + 4..<offset + 8]
            let start = offset + 8
            guard length <= png.count - start - 4 else { return nil }  // a chunk that runs past the end: damaged
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
            if type.elementsEqual("tEXt".utf8) {
                let data = png[start..<start + length]
                if let zero = data.firstIndex(of: 0), data[data.startIndex..<zero].elementsEqual(wanted) {
                    // tEXt is Latin-1; the fields the standard names are ASCII.
                    return String(decoding: data[(zero + 1)...], as: UTF8.self)
                }
            }
            offset = start + length + 4
        }
        return nil
    }
}
