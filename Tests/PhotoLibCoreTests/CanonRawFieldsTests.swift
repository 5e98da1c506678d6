import PhotoLibCore
import Testing

/// What a CR3's own TIFF blocks lose on the way to an app (`CanonRawFields`), on blocks built here.
struct CanonRawFieldsTests {
    /// A TIFF of one IFD: each entry's value inline when it fits in four bytes, else after the IFD.
    static func tiff(_ entries: [(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8])], bigEndian: Bool = false,
                     next: UInt32 = 0) -> [UInt8] {
        func bytes(_ value: UInt32, _ size: Int) -> [UInt8] {
            (0..<size).map { i in UInt8(truncatingIfNeeded: value >> UInt32(8 * (bigEndian ? size - 1 - i : i))) }
        }
        var head: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + bytes(42, 2) + bytes(8, 4) + bytes(UInt32(entries.count), 2)
        var data: [UInt8] = []
        let dataStart = 8 + 2 + 12 * entries.count + 4
        for entry in entries {
            head += bytes(UInt32(entry.tag), 2) + bytes(UInt32(entry.type), 2) + bytes(entry.count, 4)
            if entry.value.count <= 4 {
                head += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                head += bytes(UInt32(dataStart + data.count), 4)
                data += entry.value
            }
        }
        return head + bytes(next, 4) + data
    }

    static func ascii(_ text: String) -> (UInt16, UInt32, [UInt8]) {
        let value = Array(text.utf8) + [0]
        return (2, UInt32(value.count), value)
    }

    /// CMT2 as a camera writes it: exposure, the body's and lens's serials, a user comment, the lens model.
    static func exifBlock(bigEndian: Bool = false) -> [UInt8] {
        let body = ascii("032021001234"), lens = ascii("123"), model = ascii("RF24-105mm F4 L IS USM")
        let comment: [UInt8] = Array("ASCII\0\0\0".utf8) + Array("Ana at the beach".utf8)
        return tiff([(0x829A, 5, 1, [1, 0, 0, 0, 250, 0, 0, 0]), (0x9286, 7, UInt32(comment.count), comment),
                     (0xA431, body.0, body.1, body.2), (0xA434, model.0, model.1, model.2), (0xA435, lens.0, lens.1, lens.2)],
                    bigEndian: bigEndian, next: 0x1234)
    }

    @Test("the tags taken are those whose exiv2 key a removal's prefixes match: serials always, captions only with them")
    func removedTags() {
        let serials = MetadataRemoval(captions: false), all = MetadataRemoval(captions: true)
        #expect(CanonRawFields.removedTags(.exifIFD, removal: serials) == [0xA431, 0xA435])
        #expect(CanonRawFields.removedTags(.exifIFD, removal: all) == [0xA431, 0xA435, 0x9286])
        #expect(CanonRawFields.removedTags(.imageIFD, removal: serials) == [0xC62F])
        #expect(CanonRawFields.removedTags(.imageIFD, removal: all) == [0xC62F, 0x010E, 0x9C9B, 0x9C9C, 0x9C9F])
        #expect(CanonRawFields.removedTags(.makerNotes, removal: serials) == [0x000C, 0x0096, 0x4019])
        #expect(CanonRawFields.removedTags(.makerNotes, removal: all) == CanonRawFields.removedTags(.makerNotes, removal: serials))
    }

    @Test("a removed field leaves the IFD and its value is zeroed; the rest keeps its bytes and place, in both byte orders")
    func removing() throws {
        for bigEndian in [false, true] {
            let block = Self.exifBlock(bigEndian: bigEndian)
            let tags: Set<UInt16> = [0xA431, 0xA435, 0x9286]
            #expect(try CanonRawFields.count(of: tags, in: block) == 3)
            let edited = try #require(try CanonRawFields.removing(tags, from: block))
            #expect(edited.count == block.count, "the block keeps its size")
            #expect(try CanonRawFields.count(of: tags, in: edited) == 0)
            #expect(try CanonRawFields.removing(tags, from: edited) == nil, "nothing left to take")
            // What is left reads as before: the exposure inline, the lens model where it was, the next IFD's offset.
            let u16: (Int) -> Int = { bigEndian ? Int(edited[$0]) << 8 | Int(edited[$0 + 1]) : Int(edited[$0]) | Int(edited[$0 + 1]) << 8 }
            #expect(u16(8) == 2, "two entries left")
            #expect(u16(10) == 0x829A && u16(22) == 0xA434, "in their order")
            #expect(Array(edited[10..<34]) == Array(block[10..<22]) + Array(block[46..<58]), "each entry's bytes as they were")
            #expect(Array(edited[34..<38]) == Array(block[70..<74]), "the next IFD's offset follows the last entry")
            #expect(edited[38..<74].allSatisfy { $0 == 0 }, "the IFD's freed end is zeroed")
            let text = String(decoding: edited, as: UTF8.self)
            #expect(!text.contains("032021001234") && !text.contains("Ana at the beach"), "no value is left behind")
            #expect(text.contains("RF24-105mm F4 L IS USM"), "a kept value is where it was")
            #expect(edited[74...].count == block[74...].count)
        }
    }

    /// A GPS IFD as cameras write it: references, and degrees, minutes, seconds as rationals.
    static func gpsBlock(_ north: String?, _ latitude: [(UInt32, UInt32)], _ east: String?, _ longitude: [(UInt32, UInt32)],
                         bigEndian: Bool = false) -> [UInt8] {
        func rationals(_ parts: [(UInt32, UInt32)]) -> [UInt8] {
            parts.flatMap { part in [part.0, part.1].flatMap { value in
                (0..<4).map { i in UInt8(truncatingIfNeeded: value >> UInt32(8 * (bigEndian ? 3 - i : i))) }
            } }
        }
        var entries: [(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8])] = [(0, 1, 4, [2, 3, 0, 0])]
        if let north { entries.append((1, 2, 2, Array(north.utf8) + [0])) }
        entries.append((2, 5, UInt32(latitude.count), rationals(latitude)))
        if let east { entries.append((3, 2, 2, Array(east.utf8) + [0])) }
        entries.append((4, 5, UInt32(longitude.count), rationals(longitude)))
        return tiff(entries, bigEndian: bigEndian)
    }

    @Test("a CR3's place is read from its GPS IFD, in both byte orders, south and west negative; its date from its Exif IFD")
    func placeAndDate() throws {
        let paris = try #require(CanonRawGPS.coordinate(Self.gpsBlock("N", [(48, 1), (51, 1), (2772, 100)], "E", [(2, 1), (17, 1), (42, 1)])))
        #expect(abs(paris.latitude - 48.8577) < 1e-6 && abs(paris.longitude - 2.295) < 1e-6, "\(paris)")
        let rio = try #require(CanonRawGPS.coordinate(Self.gpsBlock("S", [(22, 1), (54, 1), (0, 1)], "W", [(43, 1), (1236, 100)], bigEndian: true)))
        #expect(abs(rio.latitude + 22.9) < 1e-6 && abs(rio.longitude + 43.206) < 1e-6, "minutes with decimals, big-endian: \(rio)")
        let noReferences = try #require(CanonRawGPS.coordinate(Self.gpsBlock(nil, [(10, 1)], nil, [(20, 1)])))
        #expect(noReferences.latitude == 10 && noReferences.longitude == 20, "no reference reads as north and east")
        #expect(CanonRawGPS.coordinate(Self.gpsBlock("N", [(0, 1)], "E", [(0, 1)])) == nil, "(0, 0): a camera without a fix")
        #expect(CanonRawGPS.coordinate(Self.gpsBlock("N", [(48, 0)], "E", [(2, 1)])) == nil, "a zero denominator")
        #expect(CanonRawGPS.coordinate(Self.gpsBlock("Q", [(48, 1)], "E", [(2, 1)])) == nil, "an unknown reference")
        #expect(CanonRawGPS.coordinate(Self.tiff([(0, 1, 4, [2, 3, 0, 0])])) == nil, "a version alone places nothing")
        #expect(CanonRawGPS.coordinate(Array("garbage".utf8)) == nil)

        let date = Self.ascii("2024:07:14 10:00:00"), digitized = Self.ascii("2024:07:14 10:00:05")
        #expect(CanonRawFields.captureDate(exifBlock: Self.tiff([(0x9003, date.0, date.1, date.2), (0x9004, digitized.0, digitized.1, digitized.2)]))
                == "2024:07:14 10:00:00")
        #expect(CanonRawFields.captureDate(exifBlock: Self.tiff([(0x9004, digitized.0, digitized.1, digitized.2)])) == "2024:07:14 10:00:05")
        #expect(CanonRawFields.captureDate(exifBlock: Self.exifBlock()) == nil)
    }

    @Test("a block that holds none of the fields is left alone")
    func nothingToTake() throws {
        let block = Self.tiff([(0x010F, 2, 6, Array("Canon\0".utf8)), (0x0110, 2, 4, Array("R5\0\0".utf8))])
        #expect(try CanonRawFields.count(of: [0x010E, 0xC62F], in: block) == 0)
        #expect(try CanonRawFields.removing([0x010E, 0xC62F], from: block) == nil)
    }

    @Test("a block that cannot be read is an error, never a block without the fields")
    func unreadable() throws {
        #expect(throws: CanonRawFields.Problem.notTiff) { try CanonRawFields.count(of: [0xA431], in: Array("not a tiff".utf8)) }
        #expect(throws: CanonRawFields.Problem.entriesOutOfBounds) { try CanonRawFields.count(of: [0xA431], in: Array(Self.exifBlock().prefix(40))) }
        // A field to take whose type has no known size, or whose value lies past the block's end.
        let strange = Self.tiff([(0xA431, 99, 4, [1, 2, 3, 4])])
        #expect(throws: CanonRawFields.Problem.valueUnreadable(tag: 0xA431)) { try CanonRawFields.removing([0xA431], from: strange) }
        let past = Self.tiff([(0xA431, 2, 40, [0xF0, 0, 0, 0])])
        #expect(throws: CanonRawFields.Problem.valueUnreadable(tag: 0xA431)) { try CanonRawFields.removing([0xA431], from: past) }
        // A strange field that stays is no reason to refuse.
        #expect(try CanonRawFields.removing([0xA435], from: strange) == nil)
    }
}
