/// A GNU gettext catalog (a `.mo` file) read in place: the translation of a key, found by binary
/// search over the catalog's sorted table, without building a dictionary of its thousands of entries.
///
/// GeoNames' catalogs (Debian's libgeonames-common) key a city's name by its GeoNames ID, a
/// region's by "FR.53" and a country's by "FR"; one catalog per language.
public struct GettextCatalog: Sendable {
    private let bytes: [UInt8]
    private let count: Int
    private let originals: Int
    private let translations: Int
    private let bigEndian: Bool

    /// Why bytes are not a catalog.
    public enum Problem: Error, Equatable {
        case notACatalog
        case truncated
    }

    public init(_ bytes: [UInt8]) throws(Problem) {
        guard bytes.count >= 28 else { throw .notACatalog }
        self.bytes = bytes
        let magic = Self.word(bytes, at: 0, bigEndian: false)
        switch magic {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: throw .notACatalog
        }
        count = Int(Self.word(bytes, at: 8, bigEndian: bigEndian))
        originals = Int(Self.word(bytes, at: 12, bigEndian: bigEndian))
        translations = Int(Self.word(bytes, at: 16, bigEndian: bigEndian))
        guard originals + count * 8 <= bytes.count, translations + count * 8 <= bytes.count else { throw .truncated }
    }

    /// The translation of `key`, or nil when the catalog has none (or an empty one).
    public func translation(of key: String) -> String? {
        let wanted = Array(key.utf8)
        var low = 0, high = count - 1
        while low <= high {
            let middle = (low + high) / 2
            guard let original = string(table: originals, index: middle) else { return nil }
            if original.lexicographicallyPrecedes(wanted) {
                low = middle + 1
            } else if wanted.lexicographicallyPrecedes(original) {
                high = middle - 1
            } else {
                guard let text = string(table: translations, index: middle), !text.isEmpty else { return nil }
                return String(decoding: text, as: UTF8.self)
            }
        }
        return nil
    }

    private func string(table: Int, index: Int) -> ArraySlice<UInt8>? {
        let length = Int(Self.word(bytes, at: table + index * 8, bigEndian: bigEndian))
        let offset = Int(Self.word(bytes, at: table + index * 8 + 4, bigEndian: bigEndian))
        guard offset >= 0, length >= 0, offset + length <= bytes.count else { return nil }
        return bytes[offset..<(offset + length)]
    }

    private static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32 {
        let four = (0..<4).map { UInt32(bytes[offset + $0]) }
        return bigEndian ? four[0] << 24 | four[1] << 16 | four[2] << 8 | four[3]
            : four[3] << 24 | four[2] << 16 | four[1] << 8 | four[0]
    }
}
