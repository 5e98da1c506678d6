/// Which kind of file a header says this is, as far as location metadata goes:
/// decided from the first bytes, before any metadata library is asked.
///
/// The magic numbers are those of every format exiv2 0.27 reads metadata from
/// (its `ImageFactory` registry). A file that starts with none of them holds
/// no metadata block a photo viewer would read (text, a truncated file, a
/// BMP), and is linked as it is without waking exiv2.
public enum MetadataContainer: Sendable, Equatable {
    /// MP4, MOV, HEIF/HEIC, AVIF: walked by `IsoLocationPlan`.
    case isoMedia
    /// JPEG, PNG, TIFF and TIFF-based raw, WebP, GIF, PSD, JPEG 2000, EPS,
    /// Matroska and the other raw formats: read and written by exiv2.
    case exiv2
    /// Nothing that carries metadata.
    case none

    /// How many bytes `sniff` looks at.
    public static let headerLength = 16

    public static func sniff(_ header: [UInt8]) -> MetadataContainer {
        if IsoLocationPlan.isIsoMedia(header: header) { return .isoMedia }
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            header.count >= offset + magic.count && header[offset..<offset + magic.count].elementsEqual(magic)
        }
        let ascii = { (text: String) in Array(text.utf8) }
        let magics: [[UInt8]] = [
            [0xFF, 0xD8, 0xFF],                                  // JPEG
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],    // PNG
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],  // TIFF, DNG, NEF, CR2, ARW, PEF, SRW
            ascii("IIRO"), ascii("IIRS"), [0x49, 0x49, 0x55, 0x00],  // ORF, RW2
            [0x49, 0x49, 0x1A, 0x00],                            // CRW
            ascii("FUJIFILM"),                                   // RAF
            [0x00, 0x4D, 0x52, 0x4D],                            // MRW
            ascii("GIF8"), ascii("8BPS"),                        // GIF, PSD
            [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20],    // JPEG 2000
            ascii("%!PS"), [0xC5, 0xD0, 0xD3, 0xC6],             // EPS
            [0x1A, 0x45, 0xDF, 0xA3],                            // Matroska, WebM
            ascii("PGF"),                                        // PGF
        ]
        if magics.contains(where: { starts($0) }) { return .exiv2 }
        if starts(ascii("RIFF")), starts(ascii("WEBP"), at: 8) || starts(ascii("AVI "), at: 8) { return .exiv2 }
        return .none
    }
}
