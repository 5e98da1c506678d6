/// Canon's CR3 keeps its Exif as TIFF blocks in a `uuid` box inside `moov`: `CMT1` (IFD0),
/// `CMT2` (the Exif IFD), `CMT3` (maker notes) and `CMT4`, the GPS IFD on its own. exiv2 0.27
/// reads no CR3, so photolibd reads `CMT4` itself, only as far as to tell whether it holds any
/// field: the whole GPS IFD is location (`LocationFields`), and a `CMT4` holding one becomes a
/// `free` box in a copy without location, which leaves every other byte where it was.
public enum CanonRawGPS {
    /// The UUID of the `moov` box's child holding the `CMT` blocks.
    public static let metadataUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    /// Whether a `CMT4` block (a TIFF header and one IFD) holds a GPS field. One that cannot be
    /// read is taken to: it may hold a location, and a copy without it loses nothing else.
    public static func holdsLocation(_ tiff: ArraySlice<UInt8>) -> Bool {
        guard let count = entryCount(tiff) else { return true }
        return count > 0
    }

    /// The number of entries in the block's first IFD; nil when the block is not a TIFF of one.
    static func entryCount(_ tiff: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(tiff)
        guard bytes.count >= 8 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func uint(_ at: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { value, i in value | Int(bytes[at + i]) << (8 * (little ? i : size - 1 - i)) }
        }
        guard uint(2, 2) == 42 else { return nil }
        let ifd = uint(4, 4)
        guard ifd >= 8, ifd + 2 <= bytes.count else { return nil }
        let count = uint(ifd, 2)
        guard ifd + 2 + 12 * count <= bytes.count else { return nil }
        return count
    }
}
