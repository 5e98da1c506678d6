/// Which metadata fields say where a photo or video was taken: the one list
/// every derivative is stripped by.
///
/// Keys use exiv2's `Family.Group.Tag` syntax and match by prefix. Beside the
/// coordinates themselves this covers the place names that cameras, phones
/// and photo managers write (city, state, country, sub-location), since a
/// place name locates a photo as well as a coordinate does.
public enum LocationFields {
    public static let metadataKeyPrefixes: [String] = [
        // EXIF: the whole GPS IFD, and IFD0's pointer to it.
        "Exif.GPSInfo.",
        "Exif.Image.GPSTag",
        // XMP: EXIF's GPS properties as XMP, and the IPTC/Photoshop place fields.
        "Xmp.exif.GPS",
        "Xmp.exifEX.GPS",
        "Xmp.photoshop.City",
        "Xmp.photoshop.State",
        "Xmp.photoshop.Country",
        "Xmp.iptc.Location",
        "Xmp.iptc.CountryCode",
        "Xmp.iptcExt.LocationCreated",
        "Xmp.iptcExt.LocationShown",
        "Xmp.xmpDM.shotLocation",
        // IPTC-IIM place fields.
        "Iptc.Application2.City",
        "Iptc.Application2.SubLocation",
        "Iptc.Application2.ProvinceState",
        "Iptc.Application2.CountryCode",
        "Iptc.Application2.CountryName",
        "Iptc.Application2.LocationCode",
        "Iptc.Application2.LocationName",
    ]

    /// QuickTime/MP4 atoms that hold a location: `©xyz` (ISO 6709 text, in
    /// `udta` or an `ilst`) and 3GPP's `loci`.
    public static let locationAtomTypes: Set<FourCC> = [FourCC(0xA9, 0x78, 0x79, 0x7A), FourCC("loci")]

    /// QuickTime's position atom, `©xyz` (ISO 6709 text).
    public static let quickTimePositionAtom = FourCC(0xA9, 0x78, 0x79, 0x7A)

    /// Apple's key for a movie's position (ISO 6709 text).
    public static let applePositionKey = "com.apple.quicktime.location.ISO6709"

    /// Apple's `mdta` keys (`moov/meta/keys`) whose values are location.
    public static let quickTimeKeyPrefixes: [String] = ["com.apple.quicktime.location."]

    /// Whether a QuickTime metadata key names a location value.
    public static func isLocationKey(_ key: [UInt8]) -> Bool {
        quickTimeKeyPrefixes.contains { key.starts(with: Array($0.utf8)) }
    }

    public static func matches(metadataKey key: String) -> Bool {
        metadataKeyPrefixes.contains { key.hasPrefix($0) }
    }
}
