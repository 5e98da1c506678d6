@testable import PhotoLibCore
import Testing

/// `JpegGPS` reads a JPEG's Exif GPS position as exiv2's text would be read (`GPSText`), and
/// hands exiv2 anything it does not follow.
@Suite("A JPEG's GPS position read from its first bytes")
struct JpegGPSTests {
    /// A GPS field: its tag, TIFF type, count and value bytes (in the block's byte order).
    struct Field {
        let tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]
    }

    /// A TIFF block: IFD0 with the GPS pointer (unless `pointer` is false), then the GPS IFD and its values.
    static func tiff(little: Bool, gps: [Field], pointer: Bool = true, pointerType: UInt16 = 4, pointerOffset: UInt32? = nil) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * (little ? $0 : 3 - $0))) } }
        var block: [UInt8] = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        // IFD0: one entry (the GPS pointer, or Orientation) and a next-IFD offset of 0.
        let gpsOffset = UInt32(8 + 2 + 12 + 4)
        block += u16(1)
        block += pointer ? u16(0x8825) + u16(pointerType) + u32(1) + u32(pointerOffset ?? gpsOffset) : u16(0x0112) + u16(3) + u32(1) + u16(1) + u16(0)
        block += u32(0)
        // The GPS IFD, its values past it.
        var values: [UInt8] = []
        let valuesStart = Int(gpsOffset) + 2 + 12 * gps.count + 4
        block += u16(UInt16(gps.count))
        for field in gps {
            block += u16(field.tag) + u16(field.type) + u32(field.count)
            if field.value.count <= 4 {
                block += field.value + [UInt8](repeating: 0, count: 4 - field.value.count)
            } else {
                block += u32(UInt32(valuesStart + values.count))
                values += field.value
            }
        }
        block += u32(0)
        return block + values
    }

    static func rationals(_ parts: [(UInt32, UInt32)], little: Bool) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * (little ? $0 : 3 - $0))) } }
        return parts.flatMap { u32($0.0) + u32($0.1) }
    }

    /// 48° 51' 30.24" N, 2° 17' 40.2" E (the Eiffel Tower), or its antipodes' signs with `south`/`west`.
    static func position(little: Bool, latitudeRef: String? = "N", longitudeRef: String? = "E", type: UInt16 = 5) -> [Field] {
        var fields: [Field] = []
        if let latitudeRef { fields.append(Field(tag: 1, type: 2, count: 2, value: Array(latitudeRef.utf8) + [0])) }
        fields.append(Field(tag: 2, type: type, count: 3, value: rationals([(48, 1), (51, 1), (3024, 100)], little: little)))
        if let longitudeRef { fields.append(Field(tag: 3, type: 2, count: 2, value: Array(longitudeRef.utf8) + [0])) }
        fields.append(Field(tag: 4, type: type, count: 3, value: rationals([(2, 1), (17, 1), (402, 10)], little: little)))
        return fields
    }

    /// A JPEG: its start, the segments given (marker, payload), a start of scan and a little image data.
    static func jpeg(_ segments: [(UInt8, [UInt8])], scan: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in segments {
            let length = payload.count + 2
            bytes += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        if scan { bytes += [0xFF, 0xDA, 0x00, 0x02, 0x12, 0x34, 0xFF, 0xD9] }
        return bytes
    }

    static func exif(_ tiff: [UInt8]) -> (UInt8, [UInt8]) { (0xE1, Array("Exif\0\0".utf8) + tiff) }
    static func xmp(_ packet: String) -> (UInt8, [UInt8]) { (0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(packet.utf8)) }
    static let jfif: (UInt8, [UInt8]) = (0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])

    /// What exiv2's text of the same fields reads as.
    static let tower = GPSText.exif(latitude: "48/1 51/1 3024/100", latitudeRef: "N", longitude: "2/1 17/1 402/10", longitudeRef: "E")!

    @Test("Exif's GPS IFD, in either byte order, gives the very coordinate GPSText reads from exiv2's text")
    func bothByteOrders() {
        for little in [true, false] {
            let bytes = Self.jpeg([Self.jfif, Self.exif(Self.tiff(little: little, gps: Self.position(little: little)))])
            #expect(JpegGPS.read(bytes) == .at(Self.tower), "little-endian: \(little)")
        }
    }

    @Test("south and west are negative; a missing reference is north or east, as GPSText reads it")
    func hemispheres() {
        let south = Self.jpeg([Self.exif(Self.tiff(little: true, gps: Self.position(little: true, latitudeRef: "S", longitudeRef: "W")))])
        #expect(JpegGPS.read(south) == .at(GeoCoordinate(latitude: -Self.tower.latitude, longitude: -Self.tower.longitude)!))
        let bare = Self.jpeg([Self.exif(Self.tiff(little: true, gps: Self.position(little: true, latitudeRef: nil, longitudeRef: nil)))])
        #expect(JpegGPS.read(bare) == .at(Self.tower))
    }

    @Test("no GPS IFD, and no XMP that may place it: nowhere; an XMP naming a GPS latitude is exiv2's to read")
    func withoutExifPosition() {
        let noGPS = Self.exif(Self.tiff(little: true, gps: [], pointer: false))
        #expect(JpegGPS.read(Self.jpeg([noGPS])) == .nowhere)
        #expect(JpegGPS.read(Self.jpeg([Self.jfif])) == .nowhere, "no metadata at all")
        #expect(JpegGPS.read(Self.jpeg([noGPS, Self.xmp("<x:xmpmeta><dc:title>Beach</dc:title></x:xmpmeta>")])) == .nowhere)
        #expect(JpegGPS.read(Self.jpeg([noGPS, Self.xmp("<rdf:Description exif:GPSLatitude='48,51.5N'/>")])) == .undecided)
        #expect(JpegGPS.read(Self.jpeg([Self.xmp("<exif:GPSLatitude>48,51.5N</exif:GPSLatitude>")])) == .undecided)
        // A GPS IFD with a latitude and no longitude is no Exif position: exiv2 would look at XMP.
        let half = Self.position(little: true).filter { $0.tag != 4 }
        #expect(JpegGPS.read(Self.jpeg([Self.exif(Self.tiff(little: true, gps: half))])) == .nowhere)
    }

    @Test("an Exif position is read even when XMP has one too, as exiv2's reading prefers Exif")
    func exifBeforeXMP() {
        let bytes = Self.jpeg([Self.exif(Self.tiff(little: true, gps: Self.position(little: true))),
                               Self.xmp("<exif:GPSLatitude>10,0N</exif:GPSLatitude>")])
        #expect(JpegGPS.read(bytes) == .at(Self.tower))
    }

    @Test("only the first Exif segment counts, as for exiv2")
    func firstExifSegment() {
        let none = Self.exif(Self.tiff(little: true, gps: [], pointer: false))
        let placed = Self.exif(Self.tiff(little: true, gps: Self.position(little: true)))
        #expect(JpegGPS.read(Self.jpeg([none, placed])) == .nowhere)
        #expect(JpegGPS.read(Self.jpeg([placed, none])) == .at(Self.tower))
    }

    @Test("(0, 0), a camera without a fix, is nowhere")
    func noFix() {
        let zero = [Field(tag: 2, type: 5, count: 1, value: Self.rationals([(0, 1)], little: true)),
                    Field(tag: 4, type: 5, count: 1, value: Self.rationals([(0, 1)], little: true))]
        #expect(JpegGPS.read(Self.jpeg([Self.exif(Self.tiff(little: true, gps: zero))])) == .nowhere)
    }

    @Test("what this reader does not follow is exiv2's: other formats, a cut prefix, odd types and references, bad offsets")
    func undecided() {
        #expect(JpegGPS.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .undecided, "a PNG")
        #expect(JpegGPS.read([]) == .undecided)
        let placed = Self.exif(Self.tiff(little: true, gps: Self.position(little: true)))
        let whole = Self.jpeg([Self.jfif, placed])
        #expect(JpegGPS.read(Self.jpeg([Self.jfif, placed], scan: false)) == .undecided, "no image data reached")
        #expect(JpegGPS.read(Array(whole.prefix(30))) == .undecided, "a segment cut short")
        let signed = Self.exif(Self.tiff(little: true, gps: Self.position(little: true, type: 10)))
        #expect(JpegGPS.read(Self.jpeg([signed])) == .undecided, "SRATIONAL degrees")
        let odd = Self.exif(Self.tiff(little: true, gps: Self.position(little: true, latitudeRef: "n")))
        #expect(JpegGPS.read(Self.jpeg([odd])) == .undecided, "a lowercase reference")
        let zeroDenominator = [Field(tag: 2, type: 5, count: 1, value: Self.rationals([(48, 0)], little: true)),
                               Field(tag: 4, type: 5, count: 1, value: Self.rationals([(2, 1)], little: true))]
        #expect(JpegGPS.read(Self.jpeg([Self.exif(Self.tiff(little: true, gps: zeroDenominator))])) == .undecided)
        let far = Self.exif(Self.tiff(little: true, gps: Self.position(little: true), pointerOffset: 60_000))
        #expect(JpegGPS.read(Self.jpeg([far])) == .undecided, "a GPS IFD past the block")
        let short = Self.exif(Self.tiff(little: true, gps: Self.position(little: true), pointerType: 3))
        #expect(JpegGPS.read(Self.jpeg([short])) == .undecided, "a GPS pointer of type SHORT")
        #expect(JpegGPS.read(Self.jpeg([(0xE1, Array("Exif\0\0".utf8) + [0x49, 0x49, 0x2B, 0x00])])) == .undecided, "not a TIFF header")
    }
}
