/// Canon's CR3 keeps its Exif as TIFF blocks in a `uuid` box inside `moov`: `CMT1` (IFD0),
/// `CMT2` (the Exif IFD), `CMT3` (maker notes) and `CMT4`, the GPS IFD on its own. exiv2 0.27
/// reads no CR3, so photolibd reads `CMT4` itself: whether it holds any field (the whole GPS IFD
/// is location, `LocationFields`, and a `CMT4` holding one becomes a `free` box in a copy without
/// location, which leaves every other byte where it was), and where it places the photo.
public enum CanonRawGPS {
    /// The UUID of the `moov` box's child holding the `CMT` blocks.
    public static let metadataUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    /// Whether a `CMT4` block (a TIFF header and one IFD) holds a GPS field. One that cannot be
    /// read is taken to: it may hold a location, and a copy without it loses nothing else.
    public static func holdsLocation(_ tiff: ArraySlice<UInt8>) -> Bool {
        guard let ifd = try? TiffIFD(Array(tiff)) else { return true }
        return !ifd.entries.isEmpty
    }

    /// Where the block says the picture was taken: latitude and longitude as degrees, minutes and
    /// seconds with their references (a missing one read as north or east, as exiftool reads it).
    /// nil when it holds no position or cannot be read: the photo then has no place, as a JPEG would.
    public static func coordinate(_ tiff: [UInt8]) -> GeoCoordinate? {
        guard let ifd = try? TiffIFD(tiff), let latitude = ifd.rationals(2), let longitude = ifd.rationals(4),
              let north = degrees(latitude), let east = degrees(longitude),
              let northSign = sign(ifd.ascii(1), negative: "S"), let eastSign = sign(ifd.ascii(3), negative: "W") else { return nil }
        return GeoCoordinate(latitude: northSign * north, longitude: eastSign * east)
    }

    private static func degrees(_ parts: [Double]) -> Double? {
        guard (1...3).contains(parts.count) else { return nil }
        return zip(parts, [1.0, 60, 3600]).reduce(0) { $0 + $1.0 / $1.1 }
    }

    private static func sign(_ reference: String?, negative: String) -> Double? {
        switch reference?.uppercased() {
        case nil: 1
        case negative: -1
        case "N", "E": 1
        default: nil
        }
    }
}
