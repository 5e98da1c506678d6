/// A picture a raw file carries beside its sensor data: the camera's own JPEG rendering of the photo
/// (often full size), or a small thumbnail. An app that reads only JPEG is handed the best of them,
/// as digiKam and Darktable show a raw file before developing it: Debian's libvips decodes no raw.
public struct EmbeddedPreview: Sendable, Equatable {
    /// Its size in pixels; 0 when the file does not say.
    public var width: Int
    public var height: Int
    /// Its length in bytes.
    public var bytes: Int
    public var isJPEG: Bool

    public init(width: Int, height: Int, bytes: Int, isJPEG: Bool) {
        self.width = width
        self.height = height
        self.bytes = bytes
        self.isJPEG = isJPEG
    }

    /// Below this on its longer side a preview is a thumbnail, not a photo to hand to an app.
    public static let smallestLongSide = 640

    /// Which preview to hand over, or why none will do.
    public enum Choice: Sendable, Equatable {
        case preview(index: Int)
        /// The file carries no JPEG preview at all.
        case none
        /// Its largest JPEG preview is `width` × `height`: a thumbnail.
        case tooSmall(width: Int, height: Int)
    }

    /// The largest JPEG (by pixels, else by bytes when the file gives no size), if it is a photo's size.
    public static func choose(_ previews: [EmbeddedPreview]) -> Choice {
        let jpegs = previews.indices.filter { previews[$0].isJPEG }
        guard let best = jpegs.max(by: { order(previews[$0]) < order(previews[$1]) }) else { return .none }
        let preview = previews[best]
        if preview.width > 0, preview.height > 0, max(preview.width, preview.height) < smallestLongSide {
            return .tooSmall(width: preview.width, height: preview.height)
        }
        return .preview(index: best)
    }

    /// The preview a thumbnail `side` pixels high is best made from: the smallest JPEG at least that
    /// big on its longer side (a 6000 × 4000 one would be decoded for nothing), else the largest.
    public static func forThumbnail(_ previews: [EmbeddedPreview], side: Int) -> Int? {
        let jpegs = previews.indices.filter { previews[$0].isJPEG }
        let bigEnough = jpegs.filter { max(previews[$0].width, previews[$0].height) >= side }
        if let smallest = bigEnough.min(by: { order(previews[$0]) < order(previews[$1]) }) { return smallest }
        return jpegs.max(by: { order(previews[$0]) < order(previews[$1]) })
    }

    private static func order(_ preview: EmbeddedPreview) -> (Int, Int) {
        (preview.width * preview.height, preview.bytes)
    }
}
