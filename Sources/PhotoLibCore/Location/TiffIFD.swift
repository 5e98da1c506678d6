/// The first IFD of a TIFF block (a camera's Exif, a CR3's `CMT` blocks), read enough to find
/// each entry and where its value is; nothing is copied out but the entries' heads.
public struct TiffIFD {
    /// Why a block could not be read or edited.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No TIFF header (byte order, 42, the first IFD's offset) at its start.
        case notTiff
        /// The IFD's entries, or its next-IFD offset, run past the block's end.
        case entriesOutOfBounds
        /// A field to remove has a type of unknown size, or a value past the block's end.
        case valueUnreadable(tag: UInt16)

        public var description: String {
            switch self {
            case .notTiff: return "it does not start with a TIFF header"
            case .entriesOutOfBounds: return "its IFD runs past the block's end"
            case .valueUnreadable(let tag):
                let hex = String(tag, radix: 16, uppercase: true)
                return "the value of its tag 0x\(String(repeating: "0", count: 4 - hex.count) + hex) cannot be found"
            }
        }
    }

    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        /// Where its 12 bytes start in the block.
        let position: Int
    }

    let bytes: [UInt8]
    let little: Bool
    /// Where the IFD (its entry count) starts.
    let offset: Int
    let entries: [Entry]
    var nextOffsetPosition: Int { offset + 2 + 12 * entries.count }
    /// Just past the next-IFD offset.
    var end: Int { nextOffsetPosition + 4 }

    /// The block's first IFD.
    init(_ bytes: [UInt8]) throws(Problem) {
        let little = try Self.byteOrder(bytes)
        try self.init(bytes, little: little, offset: Self.uint(bytes, little, 4, 4))
    }

    /// The IFD at `offset` in the same block (where another IFD's pointer says, such as Exif's GPS IFD).
    func ifd(at offset: Int) throws(Problem) -> TiffIFD {
        try TiffIFD(bytes, little: little, offset: offset)
    }

    /// The byte order of the block's TIFF header (true: little-endian); throws when it has none.
    private static func byteOrder(_ bytes: [UInt8]) throws(Problem) -> Bool {
        guard bytes.count >= 8 else { throw .notTiff }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: throw .notTiff
        }
        guard uint(bytes, little, 2, 2) == 42 else { throw .notTiff }
        return little
    }

    private init(_ bytes: [UInt8], little: Bool, offset: Int) throws(Problem) {
        guard offset >= 8, offset <= bytes.count - 2 else { throw .entriesOutOfBounds }
        let count = Self.uint(bytes, little, offset, 2)
        guard offset + 2 + 12 * count + 4 <= bytes.count else { throw .entriesOutOfBounds }
        self.bytes = bytes
        self.little = little
        self.offset = offset
        entries = (0..<count).map { index in
            let position = offset + 2 + 12 * index
            return Entry(tag: UInt16(Self.uint(bytes, little, position, 2)), type: UInt16(Self.uint(bytes, little, position + 2, 2)),
                         count: UInt32(Self.uint(bytes, little, position + 4, 4)), position: position)
        }
    }

    /// The bytes of an entry's value: in the entry when they fit in four, else where it points.
    /// nil when its type's size is unknown or the value runs past the block.
    func valueRange(of entry: Entry) -> Range<Int>? {
        guard let unit = Self.typeSizes[entry.type] else { return nil }
        let (size, overflow) = Int(entry.count).multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        if size <= 4 { return entry.position + 8..<entry.position + 8 + size }
        let start = Self.uint(bytes, little, entry.position + 8, 4)
        guard start <= bytes.count, size <= bytes.count - start else { return nil }
        return start..<start + size
    }

    /// An ASCII field's text, up to its first NUL; nil when absent, of another type or empty.
    func ascii(_ tag: UInt16) -> String? {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 2, let range = valueRange(of: entry) else { return nil }
        let text = String(decoding: bytes[range].prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// A LONG or IFD field's one value (an offset to another IFD); nil when absent, of another type or not one value.
    func offset(_ tag: UInt16) -> Int? {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 4 || entry.type == 13, entry.count == 1 else { return nil }
        return Self.uint(bytes, little, entry.position + 8, 4)
    }

    /// A RATIONAL field's values; nil when absent, of another type, or one has a zero denominator.
    func rationals(_ tag: UInt16) -> [Double]? {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 5, let range = valueRange(of: entry) else { return nil }
        var values: [Double] = []
        for at in stride(from: range.lowerBound, to: range.upperBound, by: 8) {
            let numerator = Self.uint(bytes, little, at, 4), denominator = Self.uint(bytes, little, at + 4, 4)
            guard denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    func write(_ value: UInt32, size: Int, into bytes: inout [UInt8], at position: Int) {
        for i in 0..<size {
            let shift = 8 * (little ? i : size - 1 - i)
            bytes[position + i] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
    }

    static func uint(_ bytes: [UInt8], _ little: Bool, _ at: Int, _ size: Int) -> Int {
        (0..<size).reduce(0) { value, i in value | Int(bytes[at + i]) << (8 * (little ? i : size - 1 - i)) }
    }

    /// TIFF 6.0's field types (and BigTIFF-free IFD), by their size in bytes.
    static let typeSizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]
}
