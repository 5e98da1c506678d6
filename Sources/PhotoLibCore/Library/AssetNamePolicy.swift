/// Decides from a name alone whether a directory entry can be an asset.
///
/// An asset is a regular file whose extension (ASCII, case-insensitive) is a
/// known photo or video type. Hidden names and the names that downloaders,
/// editors and rsync give to incomplete files never count, even with a photo
/// extension. The file type itself (regular file, not a symlink) is checked
/// separately, from `lstat`, by the system layer.
public struct AssetNamePolicy: Sendable, Equatable {
    /// The documented default image extensions, lowercase.
    public static let defaultImageExtensions: [String] = [
        "jpg", "jpeg", "jpe", "png", "gif", "webp", "heic", "heif", "avif", "jxl", "tif", "tiff", "bmp",
        "dng", "cr2", "cr3", "nef", "arw", "orf", "rw2", "raf", "srw", "pef",
    ]
    /// The documented default video extensions, lowercase.
    public static let defaultVideoExtensions: [String] = [
        "mov", "mp4", "m4v", "avi", "mkv", "webm", "3gp", "mts", "m2ts", "mpg", "mpeg",
    ]
    /// Name endings that mark a file as incomplete or temporary.
    public static let temporarySuffixes: [String] = [".part", ".tmp", ".crdownload", "~", ".partial", ".download"]

    private let imageExtensions: Set<[UInt8]>
    private let videoExtensions: Set<[UInt8]>

    public init(
        imageExtensions: [String] = AssetNamePolicy.defaultImageExtensions,
        videoExtensions: [String] = AssetNamePolicy.defaultVideoExtensions
    ) {
        self.imageExtensions = Set(imageExtensions.map { Self.lowercased(Array($0.utf8)) })
        self.videoExtensions = Set(videoExtensions.map { Self.lowercased(Array($0.utf8)) })
    }

    public static let standard = AssetNamePolicy()

    /// The media type a file of this name would be, or `nil` when the name is never an asset.
    ///
    /// Asked of every entry of every listing (a restart asks 100,000 times), so
    /// it compares in place, case-folding byte by byte, and copies only the
    /// extension.
    public func mediaType(of name: FileName) -> MediaType? {
        if name.isHidden { return nil }
        let bytes = name.bytes
        for suffix in Self.temporarySuffixBytes where bytes.count > suffix.count && Self.hasSuffix(bytes, suffix) { return nil }
        guard let ext = name.pathExtension.map(Self.lowercased) else { return nil }
        if imageExtensions.contains(ext) { return .image }
        if videoExtensions.contains(ext) { return .video }
        return nil
    }

    private static let temporarySuffixBytes: [[UInt8]] = temporarySuffixes.map { Array($0.utf8) }

    /// Whether `bytes` ends with `suffix` (given in lowercase), ignoring ASCII case.
    private static func hasSuffix(_ bytes: [UInt8], _ suffix: [UInt8]) -> Bool {
        var index = bytes.count - suffix.count
        for expected in suffix {
            let byte = bytes[index]
            if ((0x41...0x5A).contains(byte) ? byte + 0x20 : byte) != expected { return false }
            index += 1
        }
        return true
    }

    /// ASCII-only lowercasing: bytes of other scripts stay as they are.
    static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }
}
