import CThumbnail
import Foundation
import PhotoLibCore

/// Makes one thumbnail with libvips (ffmpegthumbnailer for a video's frame), within limits.
///
/// Used only in this decoder process, never in the page server or the daemon. Each image is refused before decoding when its header
/// claims more than `maxPixels`, and stopped when it takes longer than
/// `maxSeconds`; libvips shrinks on load, so a 12 MP JPEG is decoded at an
/// eighth of its size, never whole.
final class Thumbnailer {
    /// What one file gave: a PNG, or why none.
    enum Made {
        case png([UInt8])
        case failed(String)
    }

    let size: Int
    let maxPixels: Int64
    let maxSeconds: Double

    /// Starts libvips in this process; fails when it cannot.
    init(size: Int = 256, maxPixels: Int64 = 100_000_000, maxSeconds: Double = 10) throws(PhotoLibError) {
        guard photolib_thumbnail_start("photolibd-thumbnailer", 1, 64 << 20) == 0 else {
            throw .invalidParameter(name: "libvips", reason: "libvips did not start; check that libvips is installed (Debian: libvips42)")
        }
        self.size = size
        self.maxPixels = maxPixels
        self.maxSeconds = maxSeconds
    }

    /// A thumbnail of the file at `path` (its bytes); `uri` and `mtime` are written into it for the freedesktop cache.
    /// A video (`isVideo`) gets a frame a tenth of the way in, by ffmpegthumbnailer.
    func make(path: [UInt8], uri: String, mtime: Int64, isVideo: Bool = false) -> Made {
        let cPath = (path + [0]).map { CChar(bitPattern: $0) }
        var png: UnsafeMutableRawPointer?
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        let limits = photolib_thumbnail_limits(size: Int32(size), max_pixels: maxPixels, max_seconds: maxSeconds)
        let status = isVideo
            ? photolib_thumbnail_video(cPath, uri, mtime, limits, &png, &length, &error, error.count)
            : photolib_thumbnail_make(cPath, uri, mtime, limits, &png, &length, &error, error.count)
        guard status == 0, let png else {
            return .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { photolib_thumbnail_free(png) }
        return .png(Array(UnsafeRawBufferPointer(start: png, count: length)))
    }
}
