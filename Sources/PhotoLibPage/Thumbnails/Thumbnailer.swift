import CThumbnail
import Dispatch
import Foundation
import PhotoLibCore

/// Makes thumbnails with libvips, within limits, on as many threads as the machine has cores.
///
/// A library's files come from anywhere (an app's inbox among them): a damaged
/// or hostile image must cost a placeholder, not the page. Each image is
/// refused before decoding when its header claims more than `maxPixels`, and
/// stopped when it takes longer than `maxSeconds`; libvips shrinks on load, so
/// a 12 MP JPEG is decoded at an eighth of its size, never whole.
public final class Thumbnailer: Sendable {
    /// What a thumbnail request produced.
    public enum Made: Sendable {
        case png([UInt8])
        /// Why no thumbnail could be made (the page shows a placeholder).
        case failed(String)
    }

    public let size: Int
    public let maxPixels: Int64
    public let maxSeconds: Double
    private let workers: DispatchQueue
    private let slots: DispatchSemaphore

    /// Starts libvips; fails when it cannot.
    public init(size: Int = 256, maxPixels: Int64 = 100_000_000, maxSeconds: Double = 10, threads: Int = 0) throws(PhotoLibError) {
        let cores = max(1, threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount)
        guard photolib_thumbnail_start("photolibd-page", 1, 64 << 20) == 0 else {
            throw .invalidParameter(name: "libvips", reason: "libvips did not start; check that libvips is installed (Debian: libvips42)")
        }
        self.size = size
        self.maxPixels = maxPixels
        self.maxSeconds = maxSeconds
        workers = DispatchQueue(label: "photolibd-page thumbnails", attributes: .concurrent)
        slots = DispatchSemaphore(value: cores)
    }

    /// A thumbnail of the file at `path`; `uri` and `mtime` are written into it for the freedesktop cache.
    /// `path` is the file's path as C wants it: its bytes, then a NUL.
    /// A video (`isVideo`) gets a frame a tenth of the way in, by ffmpegthumbnailer.
    public func make(path: [CChar], uri: String, mtime: Int64, isVideo: Bool = false) async -> Made {
        await withCheckedContinuation { continuation in
            workers.async { [self] in
                slots.wait()
                defer { slots.signal() }
                continuation.resume(returning: makeHere(path: path, uri: uri, mtime: mtime, isVideo: isVideo))
            }
        }
    }

    private func makeHere(path: [CChar], uri: String, mtime: Int64, isVideo: Bool) -> Made {
        var png: UnsafeMutableRawPointer?
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        let limits = photolib_thumbnail_limits(size: Int32(size), max_pixels: maxPixels, max_seconds: maxSeconds)
        let status = isVideo
            ? photolib_thumbnail_video(path, uri, mtime, limits, &png, &length, &error, error.count)
            : photolib_thumbnail_make(path, uri, mtime, limits, &png, &length, &error, error.count)
        guard status == 0, let png else {
            return .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { photolib_thumbnail_free(png) }
        return .png(Array(UnsafeRawBufferPointer(start: png, count: length)))
    }
}
