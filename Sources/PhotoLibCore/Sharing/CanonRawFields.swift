/// The fields of a Canon CR3's own TIFF blocks that an app's copy loses (`MetadataRemoval`):
/// `CMT1` (IFD0: captions, the camera's serial as DNG names it), `CMT2` (the Exif IFD: body and
/// lens serials, the user comment) and `CMT3` (Canon's maker notes: the serials Canon keeps).
/// `CMT4`, the GPS IFD, is location's (`CanonRawGPS`).
///
/// exiv2 0.27 reads no CR3, so photolibd edits these blocks itself, in place: a removed field's
/// entry leaves its IFD (the entries after it move up, the freed end of the IFD is zeroed) and
/// its value bytes are zeroed. Nothing else moves and the block keeps its size, so every offset
/// in it, and in the file, stays right. A block that cannot be read is an error, never a pass.
public enum CanonRawFields {
    /// One of the blocks, by its box type, and the exiv2 group its tags are read in from a JPEG
    /// (which `MetadataRemoval`'s prefixes name).
    public enum Block: String, Sendable, CaseIterable {
        case imageIFD = "CMT1"
        case exifIFD = "CMT2"
        case makerNotes = "CMT3"

        /// Its box type in the CR3.
        public var box: FourCC {
            switch self {
            case .imageIFD: FourCC("CMT1")
            case .exifIFD: FourCC("CMT2")
            case .makerNotes: FourCC("CMT3")
            }
        }

        public var group: String {
            switch self {
            case .imageIFD: "Exif.Image"
            case .exifIFD: "Exif.Photo"
            case .makerNotes: "Exif.Canon"
            }
        }
    }

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

    /// Every tag of each block that some removal may take, by the name exiv2 reads it under
    /// (an unnamed tag as exiv2 writes it, `0x4019`).
    static let names: [Block: [UInt16: String]] = [
        .imageIFD: [0x010E: "ImageDescription", 0x9C9B: "XPTitle", 0x9C9C: "XPComment", 0x9C9F: "XPSubject",
                    0xC62F: "CameraSerialNumber"],
        .exifIFD: [0xA431: "BodySerialNumber", 0xA435: "LensSerialNumber", 0x9286: "UserComment"],
        .makerNotes: [0x000C: "SerialNumber", 0x0096: "InternalSerialNumber", 0x4019: "0x4019"],
    ]

    /// The tags `removal` takes from `block`: those whose exiv2 key one of its prefixes matches,
    /// so a CR3 loses exactly what a JPEG from the same camera loses.
    public static func removedTags(_ block: Block, removal: MetadataRemoval) -> Set<UInt16> {
        let prefixes = removal.prefixes
        return Set(names[block, default: [:]].compactMap { tag, name in
            let key = block.group + "." + name
            return prefixes.contains { key.hasPrefix($0) } ? tag : nil
        })
    }

    /// How many of `tags` the block holds.
    public static func count(of tags: Set<UInt16>, in block: [UInt8]) throws(Problem) -> Int {
        try IFD(block).entries.filter { tags.contains($0.tag) }.count
    }

    /// The block without `tags`, the same length; nil when it holds none of them.
    public static func removing(_ tags: Set<UInt16>, from block: [UInt8]) throws(Problem) -> [UInt8]? {
        let ifd = try IFD(block)
        let removed = ifd.entries.filter { tags.contains($0.tag) }
        guard !removed.isEmpty else { return nil }
        var edited = block
        for entry in removed {
            guard let value = ifd.valueRange(of: entry) else { throw .valueUnreadable(tag: entry.tag) }
            edited.replaceSubrange(value, with: repeatElement(0, count: value.count))
        }
        let kept = ifd.entries.filter { !tags.contains($0.tag) }
        var at = ifd.offset
        ifd.write(UInt32(kept.count), size: 2, into: &edited, at: at)
        at += 2
        for entry in kept {
            edited.replaceSubrange(at..<at + 12, with: block[entry.position..<entry.position + 12])
            at += 12
        }
        edited.replaceSubrange(at..<at + 4, with: block[ifd.nextOffsetPosition..<ifd.nextOffsetPosition + 4])
        at += 4
        edited.replaceSubrange(at..<ifd.end, with: repeatElement(0, count: ifd.end - at))
        return edited
    }

    /// When the picture was taken, from the Exif IFD (`CMT2`): `DateTimeOriginal`, else
    /// `DateTimeDigitized`, as a JPEG's is read ("2024:07:14 10:00:00"); nil when it has neither.
    public static func captureDate(exifBlock: [UInt8]) -> String? {
        guard let ifd = try? IFD(exifBlock) else { return nil }
        return ifd.ascii(0x9003) ?? ifd.ascii(0x9004)
    }

    /// A block's first IFD, read enough to find each entry and where its value is.
    struct IFD {
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

        init(_ bytes: [UInt8]) throws(Problem) {
            guard bytes.count >= 8 else { throw .notTiff }
            let little: Bool
            switch (bytes[0], bytes[1]) {
            case (0x49, 0x49): little = true
            case (0x4D, 0x4D): little = false
            default: throw .notTiff
            }
            guard Self.uint(bytes, little, 2, 2) == 42 else { throw .notTiff }
            let offset = Self.uint(bytes, little, 4, 4)
            guard offset >= 8, offset + 2 <= bytes.count else { throw .entriesOutOfBounds }
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
}
