import CZstd
import Foundation
import PhotoLibCore

/// How an event's body is kept in the change log: a Zstandard frame when that is smaller, else the
/// JSON as it is (small events, and every event stored before bodies were compressed).
///
/// The log is most of the state directory's size (a selection of 10,000 photos is one event of
/// 1.1 MB of JSON, 0.19 MB compressed); it is written once per event and read only when an app
/// resumes from a token, so each body is a frame of its own and nothing else changes. The two
/// forms cannot be confused: a JSON body starts with `{`, a frame with its magic number.
enum ChangeLogBody {
    /// Zstandard's fastest level: it compresses this JSON as well as the default level does.
    static let level: Int32 = 1
    /// A frame claiming more than this is damage, not an event (the largest event, a whole
    /// library's reload of 100,000 photos, is about 15 MB of JSON).
    static let largestBody: UInt64 = 1 << 30

    /// The bytes to store for `json`.
    static func pack(_ json: [UInt8]) -> Data {
        let bound = ZSTD_compressBound(json.count)
        var frame = Data(count: bound)
        let written = frame.withUnsafeMutableBytes { out in
            json.withUnsafeBytes { source in ZSTD_compress(out.baseAddress, bound, source.baseAddress, json.count, level) }
        }
        // Compression fails only without memory; the JSON itself is then stored, which any reader reads.
        guard ZSTD_isError(written) == 0, written < json.count else { return Data(json) }
        frame.count = written
        return frame
    }

    /// The JSON of a stored body; what cannot be read is described for `databaseFailed`.
    static func unpack(_ stored: Data) -> Result<[UInt8], Problem> {
        guard isFrame(stored) else { return .success(Array(stored)) }
        return stored.withUnsafeBytes { (frame: UnsafeRawBufferPointer) -> Result<[UInt8], Problem> in
            let size = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
            guard size != photolibd_zstd_size_error, size != photolibd_zstd_size_unknown, size <= largestBody else {
                return .failure(Problem("a compressed event that does not say its size"))
            }
            var json = [UInt8](repeating: 0, count: Int(size))
            let read = json.withUnsafeMutableBytes { ZSTD_decompress($0.baseAddress, $0.count, frame.baseAddress, frame.count) }
            if ZSTD_isError(read) != 0 {
                return .failure(Problem("a compressed event that cannot be read (\(String(cString: ZSTD_getErrorName(read))))"))
            }
            guard read == size else { return .failure(Problem("a compressed event shorter than it says")) }
            return .success(json)
        }
    }

    /// Zstandard's magic number, little-endian: 28 B5 2F FD.
    static func isFrame(_ stored: Data) -> Bool {
        stored.count >= 4 && stored.prefix(4).elementsEqual([0x28, 0xB5, 0x2F, 0xFD])
    }

    /// Why a stored body could not be read.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
