import CMetadata
import Glibc
import PhotoLibCore

/// exiv2, through CMetadata's C face: inspect and strip `LocationFields` in a
/// file or in a bare Exif or XMP block.
enum Exiv2Metadata {
    /// What exiv2 read.
    struct Inspection {
        /// Location fields present.
        var locationFields: Int
        /// `DateTimeOriginal` or the like, as written, when there is one.
        var captureDate: String?
        /// Where it was taken, when its metadata says (`GPSText`).
        var coordinate: GeoCoordinate?
        var writable: Bool
    }

    /// The prefixes as C strings, made once and kept for the process's life.
    private final class Prefixes: @unchecked Sendable {
        let pointers: [UnsafePointer<CChar>]
        init(_ strings: [String]) {
            pointers = strings.map { UnsafePointer(strdup($0)!) }
        }
    }

    private static let prefixes: Prefixes = {
        plm_initialize()
        return Prefixes(LocationFields.metadataKeyPrefixes)
    }()

    private static func withFields<R>(_ body: (plm_fields) -> R) -> R {
        prefixes.pointers.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                body(plm_fields(prefixes: rebound.baseAddress, count: rebound.count))
            }
        }
    }

    /// Runs one call with an error buffer; `nil` for an unknown format.
    private static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> plm_status) throws(DerivativeProblem) -> Bool {
        var error = [CChar](repeating: 0, count: 512)
        let status = error.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        switch status {
        case PLM_OK: return true
        case PLM_UNKNOWN_FORMAT: return false
        case PLM_NOT_WRITABLE: throw .notWritable
        case PLM_TOO_LARGE: throw .rewrittenTooLarge
        default: throw .metadata(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    private static func inspection(_ raw: plm_inspection) -> Inspection {
        func text<T>(_ field: T) -> String {
            var field = field
            return withUnsafeBytes(of: &field) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let date = text(raw.captureDate)
        let coordinate = GPSText.coordinate(latitude: text(raw.latitude), latitudeRef: text(raw.latitudeRef),
                                            longitude: text(raw.longitude), longitudeRef: text(raw.longitudeRef))
        return Inspection(locationFields: raw.matching, captureDate: date.isEmpty ? nil : date, coordinate: coordinate, writable: raw.writable != 0)
    }

    /// The file at `path`; nil when exiv2 does not know its format.
    static func inspect(path: String) throws(DerivativeProblem) -> Inspection? {
        var raw = plm_inspection()
        let known = try call { error, size in withFields { plm_inspect_file(path, $0, &raw, error, size) } }
        return known ? inspection(raw) : nil
    }

    /// Strips the file at `path` in place; returns how many fields went (nil: unknown format).
    static func strip(path: String) throws(DerivativeProblem) -> Int? {
        var removed = 0
        let known = try call { error, size in withFields { plm_strip_file(path, $0, &removed, error, size) } }
        return known ? removed : nil
    }

    static func inspect(exif tiff: [UInt8]) throws(DerivativeProblem) -> Inspection {
        var raw = plm_inspection()
        _ = try call { error, size in withFields { fields in plm_inspect_exif(tiff, tiff.count, fields, &raw, error, size) } }
        return inspection(raw)
    }

    static func inspect(xmp packet: [UInt8]) throws(DerivativeProblem) -> Inspection {
        var raw = plm_inspection()
        _ = try call { error, size in
            withFields { fields in packet.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { plm_inspect_xmp($0.baseAddress, p.count, fields, &raw, error, size) }
            } }
        }
        return inspection(raw)
    }

    /// The block without location fields, no longer than the original; nil when it had none.
    static func strip(exif tiff: [UInt8]) throws(DerivativeProblem) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: tiff.count)
        var length = 0, removed = 0
        _ = try call { error, size in
            withFields { fields in out.withUnsafeMutableBufferPointer { o in
                plm_strip_exif(tiff, tiff.count, fields, o.baseAddress, o.count, &length, &removed, error, size)
            } }
        }
        return removed == 0 ? nil : Array(out[..<length])
    }

    static func strip(xmp packet: [UInt8]) throws(DerivativeProblem) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: packet.count)
        var length = 0, removed = 0
        _ = try call { error, size in
            withFields { fields in packet.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { input in
                    out.withUnsafeMutableBufferPointer { o in
                        o.withMemoryRebound(to: CChar.self) {
                            plm_strip_xmp(input.baseAddress, p.count, fields, $0.baseAddress, $0.count, &length, &removed, error, size)
                        }
                    }
                }
            } }
        }
        return removed == 0 ? nil : Array(out[..<length])
    }
}
