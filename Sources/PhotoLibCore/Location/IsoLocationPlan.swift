/// Where an ISO base media file (MP4, MOV, HEIF/HEIC, Canon's CR3) keeps its location, and
/// so what a derivative must change: found by walking its boxes, decided here,
/// carried out by the daemon on a copy.
///
/// Nothing moves: every change keeps each box's size, so the sample offsets
/// in `stco`/`iloc` stay right and every byte of image and video data is
/// where it was.
/// - A location atom (`©xyz`, `loci`, or an `ilst` item whose `mdta` key is
///   Apple's `com.apple.quicktime.location.*`) becomes a `free` box of the same
///   size with its payload zeroed (`blankBoxes`).
/// - A CR3's GPS IFD (`CMT4`, `CanonRawGPS`) that holds a field becomes `free` the same way;
///   its other TIFF blocks are listed for `CanonRawFields` (`canonBlocks`).
/// - An Exif block (a HEIF `Exif` item) and an XMP packet (HEIF
///   `application/rdf+xml` item, the XMP `uuid` box, QuickTime's `XMP_`) are
///   handed to exiv2, which removes `LocationFields`; the shorter result is
///   written in place and padded (`exifBlocks`, `xmpBlocks`).
public struct IsoLocationPlan: Sendable, Equatable {
    /// A run of bytes in the file.
    public struct Span: Sendable, Equatable, Hashable {
        public var offset: UInt64
        public var length: Int
        public init(offset: UInt64, length: Int) {
            self.offset = offset
            self.length = length
        }
        public var end: UInt64 { offset + UInt64(length) }
    }

    /// Whole boxes (header included) to become `free`.
    public var blankBoxes: [Span] = []
    /// TIFF-headed Exif blocks.
    public var exifBlocks: [Span] = []
    /// XMP packets.
    public var xmpBlocks: [Span] = []
    /// A CR3's `CMT1`-`CMT3` TIFF blocks (their payloads), for what else an app may not have.
    public var canonBlocks: [CanonBlock] = []
    /// A CR3's GPS IFD (`CMT4`'s payload), where its place is read.
    public var canonGPS: Span?
    /// The movie's creation time from `mvhd` (seconds since 1904), when set: when a video was taken.
    public var movieCreated: UInt64?
    /// The movie's own position, as its location atom or Apple's key writes it (`ISO6709`): the
    /// first found, Apple's key before `©xyz`.
    public var moviePosition: String?

    public init(blankBoxes: [Span] = [], exifBlocks: [Span] = [], xmpBlocks: [Span] = []) {
        self.blankBoxes = blankBoxes
        self.exifBlocks = exifBlocks
        self.xmpBlocks = xmpBlocks
    }

    /// One of a CR3's TIFF blocks: which, and where its bytes are.
    public struct CanonBlock: Sendable, Equatable, Hashable {
        public var block: CanonRawFields.Block
        public var span: Span
        public init(_ block: CanonRawFields.Block, _ span: Span) {
            self.block = block
            self.span = span
        }
    }

    /// Metadata boxes larger than this are not read (a `moov` of a long video is a few MiB).
    public static let largestMetadataBox: UInt64 = 256 << 20

    /// Whether the file starts like an ISO base media file (`ftyp` first).
    public static func isIsoMedia(header: [UInt8]) -> Bool {
        header.count >= 8 && header[4..<8].elementsEqual("ftyp".utf8)
    }

    /// The bytes a `free` box of the same size as the blanked one holds: its
    /// header keeps the size field and says `free`; the rest is zero.
    public static func blankedBox(original header: [UInt8], length: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        let headerLength = header.count >= 4 && header[0..<4].elementsEqual([0, 0, 0, 1]) ? 16 : 8
        for i in 0..<min(headerLength, header.count, length) { bytes[i] = header[i] }
        if length >= 8 { bytes.replaceSubrange(4..<8, with: "free".utf8) }
        return bytes
    }

    /// Walks the file.
    public static func plan(_ file: some IsoMediaFile) throws(IsoMediaProblem) -> IsoLocationPlan {
        var plan = IsoLocationPlan()
        var offset: UInt64 = 0
        while offset + 8 <= file.size {
            let header = try file.read(at: offset, count: Int(min(16, file.size - offset)))
            let box = try BoxHeader(header, at: 0, available: file.size - offset)
            switch box.type {
            case FourCC("moov"):
                let bytes = try load(file, offset: offset, box: box)
                var walker = Walker(bytes: bytes, base: offset)
                try walker.container(box.payloadStart..<bytes.count, parent: box.type)
                plan.absorb(walker.plan)
            case FourCC("meta"):
                let bytes = try load(file, offset: offset, box: box)
                try heifMeta(bytes, base: offset, payload: box.payloadStart..<bytes.count, file: file, into: &plan)
            case FourCC("uuid"):
                if box.size >= UInt64(box.headerLength + 16),
                   try file.read(at: offset + UInt64(box.headerLength), count: 16) == xmpUUID {
                    plan.xmpBlocks.append(Span(offset: offset + UInt64(box.headerLength) + 16,
                                               length: Int(box.size) - box.headerLength - 16))
                }
            default:
                break
            }
            offset += box.size
        }
        return plan
    }

    private mutating func absorb(_ other: IsoLocationPlan) {
        movieCreated = movieCreated ?? other.movieCreated
        moviePosition = moviePosition ?? other.moviePosition
        blankBoxes += other.blankBoxes
        exifBlocks += other.exifBlocks
        xmpBlocks += other.xmpBlocks
        canonBlocks += other.canonBlocks
        canonGPS = canonGPS ?? other.canonGPS
    }

    private static func load(_ file: some IsoMediaFile, offset: UInt64, box: BoxHeader) throws(IsoMediaProblem) -> [UInt8] {
        guard box.size <= largestMetadataBox else { throw .tooLarge(box: box.type.description, size: box.size) }
        return try file.read(at: offset, count: Int(box.size))
    }

    /// The UUID of an XMP box (ISO 16684-1, as Adobe's XMP spec part 3 puts it in MP4).
    static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]

    // MARK: QuickTime / MP4 movie boxes

    /// Walks `moov` and what it holds, in memory.
    private struct Walker {
        let bytes: [UInt8]
        /// The file offset of `bytes[0]`.
        let base: UInt64
        var plan = IsoLocationPlan()

        init(bytes: [UInt8], base: UInt64) {
            self.bytes = bytes
            self.base = base
        }

        static let containers: Set<FourCC> = [FourCC("moov"), FourCC("trak"), FourCC("udta"), FourCC("mdia"), FourCC("minf")]

        mutating func container(_ range: Range<Int>, parent: FourCC) throws(IsoMediaProblem) {
            for box in try children(range) {
                let payload = box.offset + box.header.payloadStart..<box.offset + Int(box.header.size)
                if LocationFields.locationAtomTypes.contains(box.header.type), parent == FourCC("udta") || parent == FourCC("ilst") {
                    blank(box)
                    if box.header.type == LocationFields.quickTimePositionAtom {
                        noteMoviePosition(parent == FourCC("udta") ? quickTimeText(payload) : dataText(payload), apple: false)
                    }
                } else if Self.containers.contains(box.header.type) {
                    try container(payload, parent: box.header.type)
                } else if box.header.type == FourCC("mvhd"), parent == FourCC("moov"), payload.count >= 12 {
                    let created = bytes[payload.lowerBound] == 1
                        ? UInt64(readUInt32(bytes, payload.lowerBound + 4)) << 32 | UInt64(readUInt32(bytes, payload.lowerBound + 8))
                        : UInt64(readUInt32(bytes, payload.lowerBound + 4))
                    if created > 0 { plan.movieCreated = created }
                } else if box.header.type == FourCC("meta") {
                    try meta(payload)
                } else if box.header.type == FourCC("XMP_"), parent == FourCC("udta") {
                    plan.xmpBlocks.append(Span(offset: base + UInt64(payload.lowerBound), length: payload.count))
                } else if box.header.type == FourCC("uuid"), payload.count >= 16, Array(bytes[payload.prefix(16)]) == xmpUUID {
                    plan.xmpBlocks.append(Span(offset: base + UInt64(payload.lowerBound + 16), length: payload.count - 16))
                } else if box.header.type == FourCC("uuid"), parent == FourCC("moov"), payload.count >= 16,
                          Array(bytes[payload.prefix(16)]) == CanonRawGPS.metadataUUID {
                    for block in try children(payload.lowerBound + 16..<payload.upperBound) {
                        let tiff = block.offset + block.header.payloadStart..<block.offset + Int(block.header.size)
                        if block.header.type == FourCC("CMT4") {
                            plan.canonGPS = Span(offset: base + UInt64(tiff.lowerBound), length: tiff.count)
                            if CanonRawGPS.holdsLocation(bytes[tiff]) { blank(block) }
                        } else if let kind = CanonRawFields.Block.allCases.first(where: { $0.box == block.header.type }) {
                            plan.canonBlocks.append(CanonBlock(kind, Span(offset: base + UInt64(tiff.lowerBound), length: tiff.count)))
                        }
                    }
                }
            }
        }

        /// A `meta` box: ISO's is a full box (4 bytes of version and flags
        /// before its children), QuickTime's is not; the first child's header tells which.
        mutating func meta(_ payload: Range<Int>) throws(IsoMediaProblem) {
            // A full box's version and flags are zero; a child box's size never is.
            let isFullBox = payload.count >= 4 && readUInt32(bytes, payload.lowerBound) == 0
            let start = isFullBox ? payload.lowerBound + 4 : payload.lowerBound
            guard start <= payload.upperBound else { throw .malformed("a 'meta' box too short for its header") }
            let boxes = try children(start..<payload.upperBound)
            var keys: [[UInt8]] = []
            if let keysBox = boxes.first(where: { $0.header.type == FourCC("keys") }) {
                keys = try quickTimeKeys(keysBox)
            }
            for box in boxes {
                let inner = box.offset + box.header.payloadStart..<box.offset + Int(box.header.size)
                if box.header.type == FourCC("ilst") {
                    for item in try children(inner) {
                        let index = Int(item.header.type.array.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                        if LocationFields.locationAtomTypes.contains(item.header.type)
                            || (index >= 1 && index <= keys.count && LocationFields.isLocationKey(keys[index - 1])) {
                            blank(item)
                            let itemPayload = item.offset + item.header.payloadStart..<item.offset + Int(item.header.size)
                            if item.header.type == LocationFields.quickTimePositionAtom {
                                noteMoviePosition(dataText(itemPayload), apple: false)
                            } else if index >= 1 && index <= keys.count && keys[index - 1].elementsEqual(LocationFields.applePositionKey.utf8) {
                                noteMoviePosition(dataText(itemPayload), apple: true)
                            }
                        }
                    }
                } else if box.header.type == FourCC("uuid") || box.header.type == FourCC("XMP_") {
                    try container(box.offset..<box.offset + Int(box.header.size), parent: FourCC("udta"))
                }
            }
        }

        /// The key names of a `keys` box, in order (an `ilst` item's type is a 1-based index into them).
        func quickTimeKeys(_ box: ChildBox) throws(IsoMediaProblem) -> [[UInt8]] {
            var at = box.offset + box.header.payloadStart + 4  // version and flags
            let end = box.offset + Int(box.header.size)
            guard at + 4 <= end else { throw .malformed("a 'keys' box too short for its count") }
            let count = Int(readUInt32(bytes, at))
            at += 4
            var keys: [[UInt8]] = []
            for _ in 0..<count {
                guard at + 8 <= end else { throw .malformed("a 'keys' box shorter than its count says") }
                let size = Int(readUInt32(bytes, at))
                guard size >= 8, at + size <= end else { throw .malformed("a key runs past its 'keys' box") }
                keys.append(Array(bytes[at + 8..<at + size]))
                at += size
            }
            return keys
        }

        /// Keeps a position's text: Apple's key over `©xyz`, else the first.
        mutating func noteMoviePosition(_ text: String?, apple: Bool) {
            guard let text else { return }
            if plan.moviePosition == nil || apple { plan.moviePosition = text }
        }

        /// A QuickTime user-data text atom's text: a 16-bit length, a 16-bit language, the text.
        func quickTimeText(_ payload: Range<Int>) -> String? {
            guard payload.count >= 4 else { return nil }
            let length = Int(readUInt16(bytes, payload.lowerBound))
            guard length <= payload.count - 4 else { return nil }
            return String(decoding: bytes[payload.lowerBound + 4..<payload.lowerBound + 4 + length], as: UTF8.self)
        }

        /// An `ilst` item's text: its `data` box's, after its type and locale.
        func dataText(_ payload: Range<Int>) -> String? {
            guard let data = try? children(payload).first(where: { $0.header.type == FourCC("data") }) else { return nil }
            let start = data.offset + data.header.payloadStart + 8, end = data.offset + Int(data.header.size)
            guard start <= end else { return nil }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        mutating func blank(_ box: ChildBox) {
            plan.blankBoxes.append(Span(offset: base + UInt64(box.offset), length: Int(box.header.size)))
        }

        func children(_ range: Range<Int>) throws(IsoMediaProblem) -> [ChildBox] {
            try childBoxes(bytes, range)
        }
    }

    // MARK: HEIF item metadata

    /// A HEIF `meta` box: its `Exif` and XMP items, wherever `iloc` says their bytes are.
    private static func heifMeta(_ bytes: [UInt8], base: UInt64, payload: Range<Int>, file: some IsoMediaFile,
                                 into plan: inout IsoLocationPlan) throws(IsoMediaProblem) {
        guard payload.count >= 4 else { throw .malformed("a 'meta' box too short for its version") }
        let boxes = try childBoxes(bytes, payload.lowerBound + 4..<payload.upperBound)
        var types: [UInt32: (type: FourCC, contentType: [UInt8])] = [:]
        var locations: [UInt32: ItemLocation] = [:]
        var idat: Range<Int>?
        for box in boxes {
            let inner = box.offset + box.header.payloadStart..<box.offset + Int(box.header.size)
            switch box.header.type {
            case FourCC("iinf"): types = try itemTypes(bytes, inner)
            case FourCC("iloc"): locations = try itemLocations(bytes, inner)
            case FourCC("idat"): idat = inner
            default: break
            }
        }
        for (id, item) in types.sorted(by: { $0.key < $1.key }) {
            let isExif = item.type == FourCC("Exif")
            let isXMP = item.type == FourCC("mime") && item.contentType.elementsEqual("application/rdf+xml".utf8)
            guard isExif || isXMP else { continue }
            guard let location = locations[id] else { throw .malformed("item \(id) has no location in 'iloc'") }
            let span: Span
            switch location.constructionMethod {
            case 0:
                span = Span(offset: location.offset, length: location.length)
            case 1:
                guard let idat, location.offset + UInt64(location.length) <= UInt64(idat.count) else {
                    throw .malformed("item \(id) lies outside 'idat'")
                }
                span = Span(offset: base + UInt64(idat.lowerBound) + location.offset, length: location.length)
            default:
                throw .unsupported("item \(id) is built from other items")
            }
            guard span.end <= file.size else { throw .malformed("item \(id) runs past the end of the file") }
            if isXMP {
                plan.xmpBlocks.append(span)
            } else {
                // An Exif item starts with the offset of its TIFF header past these four bytes.
                guard span.length >= 4 else { throw .malformed("Exif item \(id) is too short") }
                let skip = UInt64(readUInt32(try file.read(at: span.offset, count: 4), 0))
                guard 4 + skip <= UInt64(span.length) else { throw .malformed("Exif item \(id)'s TIFF header is past its end") }
                plan.exifBlocks.append(Span(offset: span.offset + 4 + skip, length: span.length - 4 - Int(skip)))
            }
        }
    }

    /// `iinf`: each item's type (and content type, for `mime` items). Only
    /// `infe` version 2 and 3 name a type, as HEIF requires.
    private static func itemTypes(_ bytes: [UInt8], _ payload: Range<Int>) throws(IsoMediaProblem) -> [UInt32: (type: FourCC, contentType: [UInt8])] {
        guard payload.count >= 6 else { throw .malformed("an 'iinf' box too short") }
        let countSize = bytes[payload.lowerBound] == 0 ? 2 : 4
        var result: [UInt32: (type: FourCC, contentType: [UInt8])] = [:]
        for entry in try childBoxes(bytes, payload.lowerBound + 4 + countSize..<payload.upperBound) where entry.header.type == FourCC("infe") {
            var at = entry.offset + entry.header.payloadStart
            let end = entry.offset + Int(entry.header.size)
            guard at + 4 <= end else { throw .malformed("an 'infe' box too short") }
            let version = bytes[at]
            at += 4
            guard version >= 2 else { continue }
            let idSize = version == 2 ? 2 : 4
            guard at + idSize + 2 + 4 <= end else { throw .malformed("an 'infe' box too short for its item") }
            let id = idSize == 2 ? UInt32(readUInt16(bytes, at)) : readUInt32(bytes, at)
            at += idSize + 2
            let type = FourCC(bytes[at..<at + 4])
            at += 4
            var contentType: [UInt8] = []
            if type == FourCC("mime") {
                // item_name, then content_type, each ending in a zero byte.
                guard let nameEnd = bytes[at..<end].firstIndex(of: 0) else { throw .malformed("an 'infe' name without its end") }
                let typeStart = nameEnd + 1
                let typeEnd = bytes[typeStart..<end].firstIndex(of: 0) ?? end
                contentType = Array(bytes[typeStart..<typeEnd])
            }
            result[id] = (type, contentType)
        }
        return result
    }

    /// Where one item's bytes are (single extent).
    struct ItemLocation {
        var constructionMethod: Int
        var offset: UInt64
        var length: Int
    }

    /// `iloc` versions 0 to 2.
    private static func itemLocations(_ bytes: [UInt8], _ payload: Range<Int>) throws(IsoMediaProblem) -> [UInt32: ItemLocation] {
        var reader = FieldReader(bytes: bytes, at: payload.lowerBound, end: payload.upperBound)
        let version = Int(try reader.uint(1))
        _ = try reader.uint(3)
        let sizes = try reader.uint(2)
        let offsetSize = Int(sizes >> 12 & 0xF), lengthSize = Int(sizes >> 8 & 0xF), baseOffsetSize = Int(sizes >> 4 & 0xF)
        let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        guard version <= 2 else { throw .unsupported("'iloc' version \(version)") }
        let count = Int(try reader.uint(version < 2 ? 2 : 4))
        var result: [UInt32: ItemLocation] = [:]
        for _ in 0..<count {
            let id = UInt32(try reader.uint(version < 2 ? 2 : 4))
            let method = version >= 1 ? Int(try reader.uint(2) & 0xF) : 0
            _ = try reader.uint(2)  // data_reference_index
            let baseOffset = try reader.uint(baseOffsetSize)
            let extents = Int(try reader.uint(2))
            var found: [(UInt64, UInt64)] = []
            for _ in 0..<extents {
                _ = try reader.uint(indexSize)
                found.append((try reader.uint(offsetSize), try reader.uint(lengthSize)))
            }
            if found.count == 1 {
                result[id] = ItemLocation(constructionMethod: method, offset: baseOffset + found[0].0, length: Int(found[0].1))
            } else if found.count > 1 {
                result[id] = ItemLocation(constructionMethod: -1, offset: 0, length: 0)  // in pieces: `unsupported` if it is metadata
            }
        }
        return result
    }
}

/// A box header: its size (whole box), type, and where its payload starts.
struct BoxHeader {
    var size: UInt64
    var type: FourCC
    var headerLength: Int
    var payloadStart: Int { headerLength }

    /// Parses the header at `at`; `available` is how many bytes the box may
    /// span from there (a size of 0 means all of them).
    init(_ bytes: [UInt8], at: Int, available: UInt64) throws(IsoMediaProblem) {
        guard at + 8 <= bytes.count else { throw .malformed("a box header is cut off") }
        let small = UInt64(readUInt32(bytes, at))
        type = FourCC(bytes[at + 4..<at + 8])
        switch small {
        case 0:
            size = available
            headerLength = 8
        case 1:
            guard at + 16 <= bytes.count else { throw .malformed("a large box header is cut off") }
            size = UInt64(readUInt32(bytes, at + 8)) << 32 | UInt64(readUInt32(bytes, at + 12))
            headerLength = 16
        default:
            size = small
            headerLength = 8
        }
        guard size >= UInt64(headerLength), size <= available else {
            throw .malformed("box '\(type)' claims \(size) bytes where \(available) remain")
        }
    }
}

/// A box inside a buffer, at `offset`.
struct ChildBox {
    var offset: Int
    var header: BoxHeader
}

func childBoxes(_ bytes: [UInt8], _ range: Range<Int>) throws(IsoMediaProblem) -> [ChildBox] {
    var result: [ChildBox] = []
    var at = range.lowerBound
    while at + 8 <= range.upperBound {
        let header = try BoxHeader(bytes, at: at, available: UInt64(range.upperBound - at))
        result.append(ChildBox(offset: at, header: header))
        at += Int(header.size)
    }
    return result
}

func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
}

func readUInt16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
}

/// Big-endian fields of 0 to 8 bytes, checked against the end of their box.
struct FieldReader {
    let bytes: [UInt8]
    var at: Int
    let end: Int

    mutating func uint(_ size: Int) throws(IsoMediaProblem) -> UInt64 {
        guard at + size <= end else { throw .malformed("a field runs past the end of its box") }
        defer { at += size }
        return bytes[at..<at + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
