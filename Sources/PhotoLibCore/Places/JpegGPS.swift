/// Where a JPEG says it was taken, read from its first bytes without exiv2: the places pass's
/// fast path, for the photos most libraries are made of.
///
/// exiv2 builds every field of a file to answer (perf of a places pass over 100,000 JPEGs: half
/// its time). A JPEG's metadata comes before its image data, and where it was taken is two
/// entries of its Exif GPS IFD. This reads them as exiv2 would (the first Exif segment, the GPS
/// IFD its IFD0 points to, latitude and longitude as rationals with their references, read as
/// `GPSText` reads exiv2's text), and says `undecided` for anything else, so that exiv2 decides
/// as before: another format, a prefix that ends before the image data, anything malformed or
/// unusual, and an XMP packet that may hold a location when Exif holds none.
public enum JpegGPS {
    /// What the bytes say.
    public enum Reading: Sendable, Equatable {
        /// Exif's GPS IFD places it here.
        case at(GeoCoordinate)
        /// The metadata holds no location: no Exif position and no XMP that may hold one, or
        /// Exif's position is one no place has, as exiv2's reading would conclude.
        case nowhere
        /// Not for this reader: ask exiv2.
        case undecided
    }

    /// Reads `bytes`, the start of a file: enough of it when they reach its image data.
    public static func read(_ bytes: [UInt8]) -> Reading {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .undecided }
        var exif: Range<Int>?
        var xmpMayPlace = false
        var at = 2
        scanning: while true {
            // A marker: 0xFF, any fill bytes of 0xFF, its code.
            guard at < bytes.count, bytes[at] == 0xFF else { return .undecided }
            while at < bytes.count && bytes[at] == 0xFF { at += 1 }
            guard at < bytes.count else { return .undecided }
            let code = bytes[at]
            at += 1
            switch code {
            case 0xDA, 0xD9:
                break scanning  // the image data, or the end: no metadata after them for exiv2 either
            case 0xD0...0xD7, 0x01:
                continue  // markers without a length
            case 0xD8:
                return .undecided  // a second start of image: not a file this reader follows
            default:
                guard at + 2 <= bytes.count else { return .undecided }
                let length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                guard length >= 2, at + length <= bytes.count else { return .undecided }
                let data = at + 2..<at + length
                if code == 0xE1 {
                    if exif == nil && starts(bytes, data, with: exifHeader) {
                        exif = data.lowerBound + exifHeader.count..<data.upperBound
                    } else if starts(bytes, data, with: xmpHeader) && contains(bytes, data, gpsLatitude) {
                        xmpMayPlace = true
                    }
                }
                at += length
            }
        }
        // The image data was reached: the bytes held every segment exiv2 reads.
        if let exif {
            switch gpsPosition(Array(bytes[exif])) {
            case .at(let coordinate): return .at(coordinate)
            case .undecided: return .undecided
            case .nowhere: break
            }
        }
        return xmpMayPlace ? .undecided : .nowhere
    }

    /// What a TIFF block's GPS IFD says: `nowhere` when it has no latitude and longitude (exiv2
    /// then looks at XMP), `undecided` when it cannot be read here.
    static func gpsPosition(_ tiff: [UInt8]) -> Reading {
        guard let first = try? TiffIFD(tiff) else { return .undecided }
        guard first.entries.contains(where: { $0.tag == gpsPointer }) else { return .nowhere }
        guard let pointer = first.offset(gpsPointer), let gps = try? first.ifd(at: pointer) else { return .undecided }
        let hasLatitude = gps.entries.contains { $0.tag == 2 }, hasLongitude = gps.entries.contains { $0.tag == 4 }
        guard hasLatitude && hasLongitude else { return .nowhere }
        guard let latitude = gps.rationals(2), let longitude = gps.rationals(4),
              let north = degrees(latitude), let east = degrees(longitude),
              let northSign = sign(gps, 1, positive: "N", negative: "S"), let eastSign = sign(gps, 3, positive: "E", negative: "W")
        else { return .undecided }
        // As `GPSText.exif`: a position no place has (or a camera's (0, 0) without a fix) is none.
        return GeoCoordinate(latitude: northSign * north, longitude: eastSign * east).map { .at($0) } ?? .nowhere
    }

    /// Degrees, minutes and seconds added up in `GPSText`'s order, so both readers give the same double.
    private static func degrees(_ parts: [Double]) -> Double? {
        guard (1...3).contains(parts.count) else { return nil }
        var degrees = 0.0
        for (index, part) in parts.enumerated() { degrees += part / divisors[index] }
        return degrees
    }

    /// The hemisphere's sign; a missing reference is positive, as `GPSText` reads one. nil for
    /// one of another type or text: exiv2 decides those.
    private static func sign(_ ifd: TiffIFD, _ tag: UInt16, positive: String, negative: String) -> Double? {
        guard ifd.entries.contains(where: { $0.tag == tag }) else { return 1 }
        switch ifd.ascii(tag) {
        case positive: return 1
        case negative: return -1
        default: return nil
        }
    }

    private static func starts(_ bytes: [UInt8], _ range: Range<Int>, with header: [UInt8]) -> Bool {
        range.count >= header.count && bytes[range.lowerBound..<range.lowerBound + header.count].elementsEqual(header)
    }

    private static func contains(_ bytes: [UInt8], _ range: Range<Int>, _ needle: [UInt8]) -> Bool {
        guard range.count >= needle.count else { return false }
        for start in range.lowerBound...(range.upperBound - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    private static let divisors: [Double] = [1, 60, 3600]
    private static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)
    private static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// Every XMP location has it, as an attribute or an element, whatever its namespace's prefix.
    private static let gpsLatitude: [UInt8] = Array("GPSLatitude".utf8)
    /// IFD0's pointer to the GPS IFD.
    private static let gpsPointer: UInt16 = 0x8825
}
