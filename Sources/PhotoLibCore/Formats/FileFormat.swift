/// A file's format as apps name it (a MIME type), told from its name's extension, and whether an
/// app's list of the types it reads (a file dialog's filter, a pick's `accepts`) takes it.
public enum FileFormat {
    /// MIME types by extension (lowercase), for the photo and video formats a library holds.
    static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg",
        "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "tif": "image/tiff", "tiff": "image/tiff",
        "heic": "image/heic", "heif": "image/heif", "hif": "image/heif", "avif": "image/avif",
        "dng": "image/x-adobe-dng", "cr2": "image/x-canon-cr2", "cr3": "image/x-canon-cr3", "nef": "image/x-nikon-nef",
        "arw": "image/x-sony-arw", "raf": "image/x-fuji-raf", "orf": "image/x-olympus-orf", "rw2": "image/x-panasonic-rw2",
        "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime", "3gp": "video/3gpp",
        "mkv": "video/x-matroska", "webm": "video/webm", "avi": "video/x-msvideo",
    ]

    /// Names the same format goes by (a HEIC is a HEIF; JPEG's old alias).
    static let aliases: [String: Set<String>] = [
        "image/heic": ["image/heif"], "image/heif": ["image/heic"], "image/jpeg": ["image/jpg", "image/pjpeg"],
    ]

    /// The formats the converter (libvips, `photolibd-thumbnailer --to-jpeg`) decodes and makes a JPEG of.
    public static let decodedToJPEG: Set<String> = ["image/heic", "image/heif", "image/avif", "image/webp", "image/tiff", "image/png", "image/gif"]

    /// Raw files, handed as the JPEG preview they carry (`EmbeddedPreview`; exiv2 reads it): Debian's libvips
    /// has no raw loader. Canon's CR3 is not among them: exiv2 0.27 reads it only with its BMFF support switched on.
    public static let previewedAsJPEG: Set<String> = [
        "image/x-adobe-dng", "image/x-canon-cr2", "image/x-nikon-nef", "image/x-sony-arw", "image/x-fuji-raf",
        "image/x-olympus-orf", "image/x-panasonic-rw2",
    ]

    /// How a JPEG is made of a file of type `mime`, when one can be.
    public static func jpegMaking(from mime: String) -> JPEGMaking? {
        if decodedToJPEG.contains(mime) { return .decoding }
        if previewedAsJPEG.contains(mime) { return .embeddedPreview }
        return nil
    }

    /// The MIME type of a file named `name`; nil when its extension is none of the known ones.
    public static func mimeType(ofName name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return byExtension[String(name[name.index(after: dot)...]).lowercased()]
    }

    /// Whether `accepts` (MIME types, `image/*`, `*/*`) takes `mime`.
    public static func accepted(_ mime: String, by accepts: [String]) -> Bool {
        let names = [mime] + (aliases[mime] ?? [])
        let family = mime.split(separator: "/").first.map(String.init) ?? mime
        return accepts.contains { pattern in
            pattern == "*/*" || pattern == family + "/*" || names.contains(pattern)
        }
    }

    /// Whether `pattern` is a MIME type or a family as an app may name one: `type/subtype`, `type/*`, `*/*`.
    public static func isPattern(_ pattern: String) -> Bool {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let token = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.*_".contains($0)) } }
        return parts.count == 2 && token(parts[0]) && token(parts[1]) && (parts[0] != "*" || parts[1] == "*")
    }
}

/// How a JPEG is made for an app that reads no other type of a picked file.
public enum JPEGMaking: Sendable, Equatable {
    /// Decoded and encoded again (libvips).
    case decoding
    /// The JPEG preview a raw file carries, with the raw file's metadata.
    case embeddedPreview
}

/// How one picked file reaches an app that said which types it reads: as it is, as a JPEG made
/// from it, or not at all (the person is told why and chooses another).
public enum FormatDecision: Sendable, Equatable {
    case original
    case jpeg(from: String)
    case unreadable(mime: String?)

    /// An app that names no types, or none of this file's family (an app asking for photos says
    /// nothing of videos), takes it as it is.
    public static func decide(name: String, accepts: [String]) -> FormatDecision {
        guard !accepts.isEmpty else { return .original }
        guard let mime = FileFormat.mimeType(ofName: name) else {
            return accepts.contains("*/*") ? .original : .unreadable(mime: nil)
        }
        let family = String(mime.prefix { $0 != "/" })
        let namesFamily = accepts.contains { $0 == "*/*" || $0.hasPrefix(family + "/") }
        if !namesFamily || FileFormat.accepted(mime, by: accepts) { return .original }
        if FileFormat.jpegMaking(from: mime) != nil, FileFormat.accepted("image/jpeg", by: accepts) { return .jpeg(from: mime) }
        return .unreadable(mime: mime)
    }

    /// The name the app is given for a JPEG made from `name`: its extension replaced.
    public static func jpegName(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + ".jpg" }
        return String(name[..<dot]) + ".jpg"
    }
}
