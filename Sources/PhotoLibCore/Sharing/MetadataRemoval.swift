/// What a photo's metadata loses on its way to an app, beyond location (which `LocationPolicy`
/// and the derivatives handle, videos included): camera and lens serial numbers always, and with
/// `captions`, its captions, titles, face regions and the people named in its keywords.
///
/// Keys use exiv2's `Family.Group.Tag` syntax and match by prefix, as `LocationFields` do.
public struct MetadataRemoval: Sendable, Equatable, Hashable {
    /// Captions and people go too.
    public var captions: Bool

    public init(captions: Bool) {
        self.captions = captions
    }

    /// Serial numbers: a serial ties every photo a camera took to one owner, across apps and years.
    public static let serialNumberPrefixes: [String] = [
        "Exif.Photo.BodySerialNumber",
        "Exif.Photo.LensSerialNumber",
        "Exif.Image.CameraSerialNumber",
        "Exif.Canon.SerialNumber",
        "Exif.Canon.InternalSerialNumber",
        "Exif.Canon.0x4019",  // LensInfo, which exiv2 0.27 does not name: it begins with the lens serial
        "Exif.CanonCs.LensSerialNumber",
        "Exif.Nikon3.SerialNumber",
        "Exif.Nikon3.SerialNO",
        "Exif.NikonLd",  // the lens data block carries the lens serial
        "Exif.Olympus.SerialNumber",
        "Exif.OlympusEq.SerialNumber",
        "Exif.OlympusEq.InternalSerialNumber",
        "Exif.OlympusEq.LensSerialNumber",
        "Exif.Panasonic.InternalSerialNumber",
        "Exif.Pentax.SerialNumber",
        "Exif.PentaxDng.SerialNumber",
        "Exif.Fujifilm.SerialNumber",
        "Exif.Sony1.SerialNumber",
        "Exif.Sony2.SerialNumber",
        "Exif.Samsung2.SerialNumber",
        "Xmp.aux.SerialNumber",
        "Xmp.aux.LensSerialNumber",
        "Xmp.exifEX.BodySerialNumber",
        "Xmp.exifEX.LensSerialNumber",
    ]

    /// Captions, titles and who is in the picture: descriptions in Exif, XMP and IPTC, face regions
    /// (MWG's, Microsoft's), IPTC's people fields, and photo managers' keyword trees (whose people
    /// branch names them; the flat keyword lists are cleaned by value, `PeopleNames`).
    public static let captionPrefixes: [String] = [
        "Exif.Image.ImageDescription",
        "Exif.Image.XPTitle",
        "Exif.Image.XPComment",
        "Exif.Image.XPSubject",
        "Exif.Photo.UserComment",
        "Xmp.dc.description",
        "Xmp.dc.title",
        "Xmp.exif.UserComment",
        "Xmp.tiff.ImageDescription",
        "Xmp.photoshop.Headline",
        "Xmp.photoshop.CaptionWriter",
        "Xmp.acdsee.caption",
        "Xmp.acdsee.notes",
        "Iptc.Application2.Caption",
        "Iptc.Application2.Headline",
        "Iptc.Application2.Writer",
    ] + PeopleNames.sourcePrefixes

    /// Flat keyword lists: the people named in `PeopleNames.sourcePrefixes` are taken out of them
    /// value by value; the other keywords ("beach") stay.
    public static let keywordKeys: [String] = ["Xmp.dc.subject", "Iptc.Application2.Keywords"]

    /// Windows' keyword field, which goes whole with captions when it names a person (`WindowsKeywords`).
    public static let windowsKeywords = "Exif.Image.XPKeywords"

    /// The fields removed whole.
    public var prefixes: [String] {
        captions ? Self.serialNumberPrefixes + Self.captionPrefixes : Self.serialNumberPrefixes
    }
}
