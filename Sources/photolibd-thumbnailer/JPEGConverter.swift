import CThumbnail
import Foundation
import PhotoLibSystem

/// The one-shot mode the daemon starts for a pick (`--to-jpeg`): the image on standard input,
/// written whole as a JPEG to standard output, for an app that cannot read the original's format.
///
/// Here rather than in the daemon for the reason the page's decoders are here: a hostile HEIC
/// that crashes libheif, or asks for all the memory, costs this process alone.
enum JPEGConverter {
    static func run(memoryBytes: UInt64) -> Int32 {
        do {
            try ResourceLimit.limitAddressSpace(memoryBytes)
            try ResourceLimit.limitCPU(seconds: 60)
        } catch {
            FileHandle.standardError.write(Data("photolibd-thumbnailer: \(error)\n".utf8))
            return 1
        }
        // One photo, the whole machine's cores for it: the person waits on this one, as on `vips copy`.
        guard photolib_thumbnail_start("photolibd-thumbnailer", Int32(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 64 << 20) == 0 else {
            FileHandle.standardError.write(Data("photolibd-thumbnailer: libvips did not start; check that libvips is installed (Debian: libvips42)\n".utf8))
            return 1
        }
        var error = [CChar](repeating: 0, count: 512)
        let limits = photolib_thumbnail_limits(size: 0, max_pixels: 200_000_000, max_seconds: 45)
        guard photolib_convert_jpeg("/proc/self/fd/0", 1, limits, &error, error.count) == 0 else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            FileHandle.standardError.write(Data("\(why)\n".utf8))
            return 1
        }
        return 0
    }
}
