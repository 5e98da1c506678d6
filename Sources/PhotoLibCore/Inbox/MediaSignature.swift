/// The container format a file's first bytes show, whatever its name says.
///
/// An app's inbox takes only files whose content is what their extension
/// claims (SPEC §3): a text file named `.jpg` is refused. Only the leading
/// magic bytes are read, never the whole file: enough to tell containers
/// apart, not a validation of every byte (that is the viewer's job).
public enum MediaSignature: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, heif, avif, jpegXL, tiff, olympusRaw, panasonicRaw, fujiRaw, bmp, canonRaw3
    case isoVideo, quickTime, matroska, avi, mpegTransport, mpegProgram

    /// How many leading bytes `detect` looks at (an MPEG transport stream needs its second sync byte).
    public static let headerLength = 256

    /// The format `header` (the file's first bytes, up to `headerLength`) begins with, or nil.
    public static func detect(_ header: [UInt8]) -> MediaSignature? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            header.count >= offset + magic.count && Array(header[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if ascii("GIF87a") || ascii("GIF89a") { return .gif }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return .webp }
        if ascii("RIFF"), ascii("AVI ", at: 8) { return .avi }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jpegXL }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if ascii("IIRO") || ascii("IIRS") || ascii("MMOR") { return .olympusRaw }
        if starts([0x49, 0x49, 0x55, 0x00]) { return .panasonicRaw }
        if ascii("FUJIFILMCCD-RAW") { return .fujiRaw }
        if ascii("BM"), header.count >= 14 { return .bmp }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if starts([0x00, 0x00, 0x01, 0xBA]) { return .mpegProgram }
        if header.count > 188, header[0] == 0x47, header[188] == 0x47 { return .mpegTransport }
        if header.count > 196, header[4] == 0x47, header[196] == 0x47 { return .mpegTransport }  // M2TS: 4-byte timecode first
        if ascii("ftyp", at: 4), header.count >= 12 {
            let brand = String(decoding: header[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1": return .heif
            case "avif", "avis": return .avif
            case "crx ": return .canonRaw3
            case "qt  ": return .quickTime
            default: return .isoVideo
            }
        }
        // QuickTime files older than `ftyp` open with another top-level atom.
        for atom in ["moov", "mdat", "wide", "free", "skip", "pnot"] where ascii(atom, at: 4) { return .quickTime }
        return nil
    }

    /// The extensions (lowercase) a file of this format may carry.
    public var extensions: Set<String> {
        switch self {
        case .jpeg: ["jpg", "jpeg", "jpe"]
        case .png: ["png"]
        case .gif: ["gif"]
        case .webp: ["webp"]
        case .heif: ["heic", "heif"]
        case .avif: ["avif", "heif"]
        case .jpegXL: ["jxl"]
        case .tiff: ["tif", "tiff", "dng", "cr2", "nef", "arw", "pef", "srw"]
        case .olympusRaw: ["orf"]
        case .panasonicRaw: ["rw2"]
        case .fujiRaw: ["raf"]
        case .bmp: ["bmp"]
        case .canonRaw3: ["cr3"]
        case .isoVideo: ["mp4", "m4v", "mov", "3gp"]
        case .quickTime: ["mov", "mp4", "m4v"]
        case .matroska: ["mkv", "webm"]
        case .avi: ["avi"]
        case .mpegTransport: ["mts", "m2ts"]
        case .mpegProgram: ["mpg", "mpeg"]
        }
    }

    /// Every extension some format vouches for: a configured extension outside
    /// this set cannot be checked, so an inbox refuses it.
    public static let checkableExtensions: Set<String> = Set(allCases.flatMap(\.extensions))
}
