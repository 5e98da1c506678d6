import CThumbnail
import Foundation

/// Which decoder libheif uses for HEIC's pictures in this process: photolibd's (libde265 with a
/// worker thread per core, `heif_decoder.c`) once registered, which `--version` says, so that a
/// build or a libheif that refuses it is seen rather than only slower.
enum HEVCDecoder {
    static func describe() -> String {
        let threads = Int32(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        guard photolib_heif_register_decoder(threads) == 0 else {
            return "HEVC decoder: libheif refused photolibd's; libheif's own decodes, one thread a picture"
        }
        let chosen = photolib_heif_chosen_decoder().map { String(cString: $0) } ?? "none"
        return "HEVC decoder: \(chosen) (with --to-jpeg, \(threads) worker threads a picture)"
    }
}
