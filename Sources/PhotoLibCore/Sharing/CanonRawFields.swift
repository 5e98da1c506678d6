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
    /// One of the blocks.
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

        /// The exiv2 group its tags are read in from a JPEG ("Exif.Photo" for the Exif IFD).
        public var group: String {
            switch self {
            case .imageIFD: "Exif.Image"
            case .exifIFD: "Exif.Photo"
            case .makerNotes: "Exif.Canon"
            }
        }
    }

    /// Why a block could not be read or edited.
    public typealias Problem = TiffIFD.Problem

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
        try TiffIFD(block).entries.filter { tags.contains($0.tag) }.count
    }

    /// The block without `tags`, the same length; nil when it holds none of them.
    public static func removing(_ tags: Set<UInt16>, from block: [UInt8]) throws(Problem) -> [UInt8]? {
        let ifd = try TiffIFD(block)
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
        guard let ifd = try? TiffIFD(exifBlock) else { return nil }
        return ifd.ascii(0x9003) ?? ifd.ascii(0x9004)
    }
}
