import CMetadata
import PhotoLibCore

/// The JPEG previews a raw file carries (exiv2's preview manager), and one of them as a JPEG file
/// with the raw file's metadata: what `photolibd-thumbnailer --to-jpeg --from-preview` hands over.
public enum RawPreviews {
    /// The previews of the file at `path` (its bytes: a library's names need not be UTF-8), smallest
    /// first; nil when exiv2 does not know its format.
    public static func previews(path: [UInt8]) throws(DerivativeProblem) -> [EmbeddedPreview]? {
        let path = cString(path)
        plm_initialize()
        var found = [plm_preview](repeating: plm_preview(), count: 16)
        var count = 0
        let known = try Exiv2Metadata.call { error, size in
            found.withUnsafeMutableBufferPointer { plm_list_previews(path, $0.baseAddress, $0.count, &count, error, size) }
        }
        guard known else { return nil }
        return found.prefix(min(count, found.count)).map {
            EmbeddedPreview(width: Int($0.width), height: Int($0.height), bytes: Int($0.size), isJPEG: $0.jpeg != 0)
        }
    }

    /// Preview `index` as a whole JPEG file carrying the raw file's photo metadata (its maker notes and
    /// its own image structure left behind); nil when there is no such JPEG preview.
    public static func jpeg(path: [UInt8], index: Int) throws(DerivativeProblem) -> [UInt8]? {
        let path = cString(path)
        plm_initialize()
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let known = try Exiv2Metadata.call { error, errorSize in plm_preview_jpeg(path, index, &bytes, &size, error, errorSize) }
        defer { plm_free(bytes) }
        guard known, let bytes else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    private static func cString(_ bytes: [UInt8]) -> [CChar] {
        (bytes + [0]).map { CChar(bitPattern: $0) }
    }
}
