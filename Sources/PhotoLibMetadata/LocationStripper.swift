public import PhotoLibCore
public import PhotoLibSystem

/// Finds the location in a photo or video, and makes the derivative without
/// it: the only code that reads or rewrites metadata.
///
/// JPEG, PNG, TIFF, WebP and the raw formats exiv2 writes go through exiv2,
/// which rewrites the metadata segments and copies the image data unchanged.
/// MP4, MOV and HEIF/HEIC (which exiv2 0.27 reads but does not write) are
/// changed in place as `IsoLocationPlan` decides, every box keeping its size;
/// their Exif and XMP blocks are rewritten by exiv2. A file that starts like
/// no format with metadata (`MetadataContainer`) is left as it is.
public enum LocationStripper {
    /// What a look at a file found.
    public struct Finding: Sendable, Equatable {
        public var hasLocation: Bool
        /// When the picture was taken, as its metadata writes it ("2024:07:14 10:00:00").
        public var captureDate: String?
        /// A movie's `mvhd` creation time, seconds since the epoch.
        public var movieCreated: Int64?
        /// Where it was taken, from its Exif or XMP, a CR3's GPS block, or a video's own position (`ISO6709`).
        public var coordinate: GeoCoordinate?
    }

    /// Looks at an open file (read-only; nothing is changed). With `requireWritable`, a location exiv2
    /// could not write away is an error (`notWritable`): a derivative could not be made of it.
    public static func inspect(_ fd: FileDescriptor, requireWritable: Bool = true) throws(DerivativeProblem) -> Finding {
        try inspect(fd, start: try readStart(fd), requireWritable: requireWritable)
    }

    /// Where a file says it was taken: a JPEG's Exif GPS read directly (`JpegGPS`) when it can
    /// tell, else what `inspect` finds. For the places pass, which reads every photo.
    public static func coordinate(_ fd: FileDescriptor) throws(DerivativeProblem) -> GeoCoordinate? {
        let start = try readStart(fd)
        switch JpegGPS.read(start) {
        case .at(let coordinate): return coordinate
        case .nowhere: return nil
        case .undecided: return try inspect(fd, start: start, requireWritable: false).coordinate
        }
    }

    /// One read that holds a small file whole, and the metadata of most JPEGs (Exif is at most 64 KiB).
    private static func readStart(_ fd: FileDescriptor) throws(DerivativeProblem) -> [UInt8] {
        try MetadataFileIO.io { () throws(SystemCallError) in try PositionalIO.read(fd, at: 0, count: prefixLength) }
    }

    /// `inspect`, given the file's first `prefixLength` bytes (fewer: all of it).
    private static func inspect(_ fd: FileDescriptor, start: [UInt8], requireWritable: Bool) throws(DerivativeProblem) -> Finding {
        switch MetadataContainer.sniff(Array(start.prefix(MetadataContainer.headerLength))) {
        case .none:
            return Finding(hasLocation: false)
        case .exiv2:
            let read: Exiv2Metadata.Inspection?
            switch Exiv2Metadata.inspect(prefix: start, whole: start.count < prefixLength) {
            case .inspected(let inspection)?: read = inspection
            case .unknownFormat?: read = nil
            case nil: read = try Exiv2Metadata.inspect(path: fd.procPath)
            }
            guard let inspection = read else { return Finding(hasLocation: false) }
            if requireWritable && inspection.locationFields > 0 && !inspection.writable { throw .notWritable }
            return Finding(hasLocation: inspection.locationFields > 0, captureDate: inspection.captureDate, coordinate: inspection.coordinate)
        case .isoMedia:
            let file = try MetadataFileIO.mediaFile(fd)
            let plan = try MetadataFileIO.isoPlan(file)
            var found = Finding(hasLocation: !plan.blankBoxes.isEmpty,
                                movieCreated: plan.movieCreated.map { Int64($0) - CaptureTime.quickTimeEpochOffset })
            for span in plan.exifBlocks {
                let exif = try Exiv2Metadata.inspect(exif: try MetadataFileIO.read(file, span))
                found.hasLocation = found.hasLocation || exif.locationFields > 0
                found.captureDate = found.captureDate ?? exif.captureDate
                found.coordinate = found.coordinate ?? exif.coordinate
            }
            // A CR3's own blocks, which exiv2 0.27 does not read: its date in the Exif IFD, its place in the GPS IFD.
            for canon in plan.canonBlocks where canon.block == .exifIFD && found.captureDate == nil {
                found.captureDate = CanonRawFields.captureDate(exifBlock: try MetadataFileIO.read(file, canon.span))
            }
            if let gps = plan.canonGPS, found.coordinate == nil {
                found.coordinate = CanonRawGPS.coordinate(try MetadataFileIO.read(file, gps))
            }
            for span in plan.xmpBlocks {
                let xmp = try Exiv2Metadata.inspect(xmp: try MetadataFileIO.read(file, span))
                found.hasLocation = found.hasLocation || xmp.locationFields > 0
                found.captureDate = found.captureDate ?? xmp.captureDate
                found.coordinate = found.coordinate ?? xmp.coordinate
            }
            // A video's own position (Apple's key, `©xyz`), which exiv2 does not read.
            found.coordinate = found.coordinate ?? plan.moviePosition.flatMap(ISO6709.coordinate)
            return found
        }
    }

    /// How much of a file `inspect` reads at once.
    static let prefixLength = 128 * 1024

    /// Removes every location field from `copy`, an exact copy of the
    /// original that the caller made, opened read-write; `path` reaches the
    /// same file by name (exiv2 rewrites a file by its path). Then checks
    /// that none is left.
    public static func strip(_ copy: FileDescriptor, path: String) throws(DerivativeProblem) {
        let header = try MetadataFileIO.io { () throws(SystemCallError) in try PositionalIO.read(copy, at: 0, count: MetadataContainer.headerLength) }
        if MetadataContainer.sniff(header) == .isoMedia {
            let file = try MetadataFileIO.mediaFile(copy)
            let plan = try MetadataFileIO.isoPlan(file)
            for span in plan.blankBoxes {
                let boxHeader = try MetadataFileIO.read(file, IsoLocationPlan.Span(offset: span.offset, length: min(16, span.length)))
                try MetadataFileIO.write(copy, IsoLocationPlan.blankedBox(original: boxHeader, length: span.length), at: span.offset)
            }
            // Shorter blocks are padded: zeros after a TIFF block (nothing
            // points there), whitespace inside an XMP packet (`XMPPadding`).
            for span in plan.exifBlocks {
                if let stripped = try Exiv2Metadata.strip(exif: try MetadataFileIO.read(file, span)) {
                    try MetadataFileIO.write(copy, stripped + [UInt8](repeating: 0, count: span.length - stripped.count), at: span.offset)
                }
            }
            for span in plan.xmpBlocks {
                if let stripped = try Exiv2Metadata.strip(xmp: try MetadataFileIO.read(file, span)) {
                    try MetadataFileIO.write(copy, XMPPadding.fit(stripped, into: span.length), at: span.offset)
                }
            }
        } else {
            _ = try Exiv2Metadata.strip(path: path)
        }
    }

    /// Counts the location fields left in a derivative, read again from its
    /// path (exiv2 may have written a new inode): zero, or it must not be shown.
    public static func verifyStripped(_ fd: FileDescriptor) throws(DerivativeProblem) {
        if try inspect(fd).hasLocation { throw .locationRemains(fields: 1) }
    }
}
