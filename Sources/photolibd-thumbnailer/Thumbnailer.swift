import CThumbnail
import Foundation
import PhotoLibCore
import PhotoLibMetadata

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
        let status: Int32
        if isVideo {
            status = photolib_thumbnail_video(cPath, uri, mtime, limits, &png, &length, &error, error.count)
        } else if Self.isRaw(path) {
            // libvips decodes no raw file (and would take a DNG or NEF for the TIFF it is built on, showing
            // its first IFD): the camera's JPEG inside it is what a viewer shows.
            switch preview(of: path) {
            case .success(let jpeg):
                status = jpeg.withUnsafeBytes {
                    photolib_thumbnail_make_buffer($0.baseAddress, $0.count, uri, mtime, limits, &png, &length, &error, error.count)
                }
            case .failure(let why):
                return .failed(why.reason)
            }
        } else {
            status = photolib_thumbnail_make(cPath, uri, mtime, limits, &png, &length, &error, error.count)
        }
        guard status == 0, let png else {
            return .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { photolib_thumbnail_free(png) }
        return .png(Array(UnsafeRawBufferPointer(start: png, count: length)))
    }

    struct NoPreview: Error {
        let reason: String
    }

    static func isRaw(_ path: [UInt8]) -> Bool {
        let name = String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
        return FileFormat.mimeType(ofName: name).flatMap(FileFormat.jpegMaking) == .embeddedPreview
    }

    /// The JPEG inside a raw file that a thumbnail of this size is best made from, with the raw file's orientation.
    private func preview(of path: [UInt8]) -> Result<[UInt8], NoPreview> {
        do {
            guard let previews = try RawPreviews.previews(path: path) else {
                return .failure(NoPreview(reason: "exiv2 does not know this raw format"))
            }
            guard let index = EmbeddedPreview.forThumbnail(previews, side: size),
                  let jpeg = try RawPreviews.jpeg(path: path, index: index) else {
                return .failure(NoPreview(reason: "the raw file carries no JPEG preview"))
            }
            return .success(jpeg)
        } catch {
            return .failure(NoPreview(reason: "its previews cannot be read: \(error)"))
        }
    }
}
