import CMetadata
import Glibc
import PhotoLibCore

/// exiv2, through CMetadata's C face: inspect, list and strip fields (`LocationFields` unless
/// told others) in a file or in a bare Exif or XMP block.
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

    /// Key prefixes (or, for `Values`, keys and values) as C strings, made once and kept for the process's life.
    final class CStrings: @unchecked Sendable {
        let pointers: [UnsafePointer<CChar>]
        init(_ strings: [String]) {
            pointers = strings.map { UnsafePointer(strdup($0)!) }
        }

        func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int) -> R) -> R {
            pointers.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress, $0.count) }
            }
        }
    }

    /// The fields a call looks at or removes, by key prefix.
    final class FieldSet: Sendable {
        let prefixes: CStrings
        init(_ prefixes: [String]) {
            plm_initialize()
            self.prefixes = CStrings(prefixes)
        }

        /// Every location field (`LocationFields`).
        static let location = FieldSet(LocationFields.metadataKeyPrefixes)
    }

    /// Values to take out of list fields: a call's own, freed when it ends.
    struct DroppedValues {
        var keys: [String] = []
        var values: [String] = []
        static let none = DroppedValues()
    }

    private static func withFields<R>(_ set: FieldSet, _ body: (plm_fields) -> R) -> R {
        set.prefixes.withPointers { body(plm_fields(prefixes: $0, count: $1)) }
    }

    private static func withValues<R>(_ drop: DroppedValues, _ body: (plm_values) -> R) -> R {
        let keys = CStrings(drop.keys), values = CStrings(drop.values)
        defer {
            keys.pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) }
            values.pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) }
        }
        return keys.withPointers { k, kc in values.withPointers { v, vc in body(plm_values(keys: k, keyCount: kc, values: v, valueCount: vc)) } }
    }

    /// Runs one call with an error buffer; `nil` for an unknown format.
    static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> plm_status) throws(DerivativeProblem) -> Bool {
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

    /// The file at `path`; nil when exiv2 does not know its format. `locationFields` counts `fields`.
    static func inspect(path: String, fields: FieldSet = .location) throws(DerivativeProblem) -> Inspection? {
        var raw = plm_inspection()
        let known = try call { error, size in withFields(fields) { plm_inspect_file(path, $0, &raw, error, size) } }
        return known ? inspection(raw) : nil
    }

    /// A file's metadata read from its first bytes, `whole` when they are all of it, sparing exiv2 opening
    /// and reading the file again. Nil when the bytes cannot tell: a prefix of a format whose metadata may lie
    /// anywhere (only a JPEG's comes first, read in order up to its image data), a prefix that ends before
    /// the metadata does, or bytes exiv2 fails to read; the file itself is read then, and says why.
    static func inspect(prefix bytes: [UInt8], whole: Bool, fields: FieldSet = .location) -> PrefixReading? {
        var raw = plm_inspection()
        do {
            let known = try call { error, size in
                withFields(fields) { f in plm_inspect_bytes(bytes, bytes.count, whole ? 1 : 0, f, &raw, error, size) }
            }
            return known ? .inspected(inspection(raw)) : .unknownFormat
        } catch {
            return nil
        }
    }

    /// What a file's first bytes told.
    enum PrefixReading {
        case inspected(Inspection)
        /// They are a whole file, in no format exiv2 knows.
        case unknownFormat
    }

    /// Strips the file at `path` in place; returns how many fields and values went (nil: unknown format).
    static func strip(path: String, fields: FieldSet = .location, drop: DroppedValues = .none) throws(DerivativeProblem) -> Int? {
        var removed = 0
        let known = try call { error, size in
            withFields(fields) { f in withValues(drop) { plm_strip_file(path, f, $0, &removed, error, size) } }
        }
        return known ? removed : nil
    }

    /// Every value of the fields, as (key, value) pairs; nil when exiv2 does not know the format.
    static func values(path: String, fields: FieldSet) throws(DerivativeProblem) -> [(key: String, value: String)]? {
        try listing { out, capacity, needed, error, size in withFields(fields) { plm_list_file(path, $0, out, capacity, needed, error, size) } }
    }

    static func values(xmp packet: [UInt8], fields: FieldSet) throws(DerivativeProblem) -> [(key: String, value: String)] {
        try listing { out, capacity, needed, error, size in
            withFields(fields) { f in packet.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { plm_list_xmp($0.baseAddress, p.count, f, out, capacity, needed, error, size) }
            } }
        } ?? []
    }

    /// Runs a listing call, again with room enough when the first buffer was short; its records split.
    private static func listing(_ body: (UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>, Int)
                                    -> plm_status) throws(DerivativeProblem) -> [(key: String, value: String)]? {
        var capacity = 16_384
        while true {
            var out = [CChar](repeating: 0, count: capacity)
            var needed = 0
            let known = try call { error, size in out.withUnsafeMutableBufferPointer { body($0.baseAddress!, capacity, &needed, error, size) } }
            guard known else { return nil }
            if needed > capacity {
                capacity = needed
                continue
            }
            let bytes = out.prefix(needed).map { UInt8(bitPattern: $0) }
            return bytes.split(separator: 0x1E).compactMap { record in
                guard let cut = record.firstIndex(of: 0x1F) else { return nil }
                return (String(decoding: record[..<cut], as: UTF8.self), String(decoding: record[(cut + 1)...], as: UTF8.self))
            }
        }
    }

    static func inspect(exif tiff: [UInt8], fields: FieldSet = .location) throws(DerivativeProblem) -> Inspection {
        var raw = plm_inspection()
        _ = try call { error, size in withFields(fields) { f in plm_inspect_exif(tiff, tiff.count, f, &raw, error, size) } }
        return inspection(raw)
    }

    static func inspect(xmp packet: [UInt8], fields: FieldSet = .location) throws(DerivativeProblem) -> Inspection {
        var raw = plm_inspection()
        _ = try call { error, size in
            withFields(fields) { f in packet.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { plm_inspect_xmp($0.baseAddress, p.count, f, &raw, error, size) }
            } }
        }
        return inspection(raw)
    }

    /// The block without the fields, no longer than the original; nil when it had none.
    static func strip(exif tiff: [UInt8], fields: FieldSet = .location) throws(DerivativeProblem) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: tiff.count)
        var length = 0, removed = 0
        _ = try call { error, size in
            withFields(fields) { f in out.withUnsafeMutableBufferPointer { o in
                plm_strip_exif(tiff, tiff.count, f, o.baseAddress, o.count, &length, &removed, error, size)
            } }
        }
        return removed == 0 ? nil : Array(out[..<length])
    }

    static func strip(xmp packet: [UInt8], fields: FieldSet = .location, drop: DroppedValues = .none) throws(DerivativeProblem) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: packet.count)
        var length = 0, removed = 0
        _ = try call { error, size in
            withFields(fields) { f in withValues(drop) { v in packet.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { input in
                    out.withUnsafeMutableBufferPointer { o in
                        o.withMemoryRebound(to: CChar.self) {
                            plm_strip_xmp(input.baseAddress, p.count, f, v, $0.baseAddress, $0.count, &length, &removed, error, size)
                        }
                    }
                }
            } } }
        }
        return removed == 0 ? nil : Array(out[..<length])
    }
}
