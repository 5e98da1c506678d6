/// How the freedesktop Thumbnail Managing Standard names a file's thumbnail.
///
/// A thumbnail lives in `~/.cache/thumbnails/{normal,large}/` under the MD5 of
/// the file's URI, and records the URI and the file's mtime (Thumb::URI,
/// Thumb::MTime): a file manager's thumbnails are then ours to reuse, and ours
/// its; one whose MTime no longer matches is made again.
public enum ThumbnailCacheName {
    /// The sizes the standard names, and their longest side.
    public enum Size: String, Sendable {
        case normal, large
        public var pixels: Int { self == .normal ? 128 : 256 }
    }

    /// The cache directory for `size` below `cacheHome` (`$XDG_CACHE_HOME`, or `~/.cache`).
    public static func directory(cacheHome: String, size: Size) -> String {
        cacheHome + "/thumbnails/" + size.rawValue
    }
}
