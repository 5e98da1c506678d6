public import PhotoLibCore
public import PhotoLibSystem

/// Takes out of a photo what an app may not have beyond its location (`MetadataRemoval`):
/// serial numbers, and captions and people when the person keeps them.
///
/// Location is not this type's: a pick's file is already the original or its derivative without
/// location (`LocationStripper`, which also covers videos' own location boxes). JPEG, PNG, TIFF,
/// WebP and the raw formats exiv2 writes are rewritten by exiv2; HEIF's Exif and XMP blocks are
/// rewritten in place, each keeping its size, and so are a CR3's own TIFF blocks (`CanonRawFields`).
/// A video's own text atoms (a QuickTime title) are not read. Windows' keyword field, which names
/// people as Explorer's "Tags", goes whole when it names someone (`WindowsKeywords`).
public enum AppMetadataStripper {
    /// What one file loses: fields by prefix, and people's names out of the keyword lists.
    public struct Plan: Sendable, Equatable {
        /// Fields present that go.
        public var fields: Int
        /// The people named in the file, taken out of its keyword lists too.
        public var names: [String]
        /// Windows' keyword field goes whole: it names one of them (or, in a HEIF's Exif, which is
        /// not listed, it is there beside a named person).
        public var windowsKeywords = false
    }

    private static let withCaptions = Exiv2Metadata.FieldSet(MetadataRemoval(captions: true).prefixes)
    private static let serialsOnly = Exiv2Metadata.FieldSet(MetadataRemoval(captions: false).prefixes)
    private static let peopleSources = Exiv2Metadata.FieldSet(PeopleNames.sourcePrefixes)
    private static let keywords = Exiv2Metadata.FieldSet(MetadataRemoval.keywordKeys)
    private static let windowsKeywords = Exiv2Metadata.FieldSet([MetadataRemoval.windowsKeywords])
    private static let withCaptionsAndWindowsKeywords =
        Exiv2Metadata.FieldSet(MetadataRemoval(captions: true).prefixes + [MetadataRemoval.windowsKeywords])

    private static func fields(_ removal: MetadataRemoval) -> Exiv2Metadata.FieldSet {
        removal.captions ? withCaptions : serialsOnly
    }

    /// The fields `plan` takes whole.
    private static func fields(_ removal: MetadataRemoval, _ plan: Plan) -> Exiv2Metadata.FieldSet {
        removal.captions && plan.windowsKeywords ? withCaptionsAndWindowsKeywords : fields(removal)
    }

    /// What `fd` would lose; nil when it holds nothing that goes (it may be handed over as it is).
    /// A field that goes but that exiv2 cannot write away is an error (`notWritable`), never a pass.
    public static func plan(_ fd: FileDescriptor, removal: MetadataRemoval) throws(DerivativeProblem) -> Plan? {
        let header = try MetadataFileIO.io { () throws(SystemCallError) in try PositionalIO.read(fd, at: 0, count: MetadataContainer.headerLength) }
        var fieldCount = 0
        var people: [(key: String, value: String)] = []
        var listed: [(key: String, value: String)] = []
        var windows: [(key: String, value: String)] = []
        var windowsInHEIF = false
        switch MetadataContainer.sniff(header) {
        case .none:
            return nil
        case .exiv2:
            guard let inspection = try Exiv2Metadata.inspect(path: fd.procPath, fields: fields(removal)) else { return nil }
            if inspection.locationFields > 0 && !inspection.writable { throw .notWritable }
            fieldCount = inspection.locationFields
            if removal.captions {
                people = try Exiv2Metadata.values(path: fd.procPath, fields: peopleSources) ?? []
                listed = try Exiv2Metadata.values(path: fd.procPath, fields: keywords) ?? []
                windows = try Exiv2Metadata.values(path: fd.procPath, fields: windowsKeywords) ?? []
            }
        case .isoMedia:
            let file = try MetadataFileIO.mediaFile(fd)
            let plan = try MetadataFileIO.isoPlan(file)
            for span in plan.exifBlocks {
                let block = try MetadataFileIO.read(file, span)
                fieldCount += try Exiv2Metadata.inspect(exif: block, fields: fields(removal)).locationFields
                if removal.captions, try Exiv2Metadata.inspect(exif: block, fields: windowsKeywords).locationFields > 0 {
                    windowsInHEIF = true
                }
            }
            for span in plan.xmpBlocks {
                let packet = try MetadataFileIO.read(file, span)
                fieldCount += try Exiv2Metadata.inspect(xmp: packet, fields: fields(removal)).locationFields
                if removal.captions {
                    people += try Exiv2Metadata.values(xmp: packet, fields: peopleSources)
                    listed += try Exiv2Metadata.values(xmp: packet, fields: keywords)
                }
            }
            for canon in plan.canonBlocks {
                let block = try MetadataFileIO.read(file, canon.span)
                let tags = CanonRawFields.removedTags(canon.block, removal: removal)
                fieldCount += try canonRaw(canon) { () throws(CanonRawFields.Problem) in try CanonRawFields.count(of: tags, in: block) }
            }
        }
        let names = PeopleNames.names(in: people)
        let namedInKeywords = listed.filter { names.contains($0.value) }.count
        // A HEIF's Exif blocks are not listed by value: its Windows keywords go whenever someone is named.
        let windowsGo = !names.isEmpty && (windowsInHEIF || windows.contains { WindowsKeywords.namesSomeone($0.value, among: names) })
        let total = fieldCount + namedInKeywords + (windowsGo ? 1 : 0)
        return total == 0 ? nil : Plan(fields: fieldCount, names: names, windowsKeywords: windowsGo)
    }

    /// Carries out `plan` on `copy` (opened read-write; `path` reaches it by name, as exiv2 rewrites
    /// by path), then looks again: anything left is an error.
    public static func strip(_ copy: FileDescriptor, path: String, plan: Plan, removal: MetadataRemoval) throws(DerivativeProblem) {
        let drop = Exiv2Metadata.DroppedValues(keys: MetadataRemoval.keywordKeys, values: plan.names)
        let header = try MetadataFileIO.io { () throws(SystemCallError) in try PositionalIO.read(copy, at: 0, count: MetadataContainer.headerLength) }
        if MetadataContainer.sniff(header) == .isoMedia {
            let file = try MetadataFileIO.mediaFile(copy)
            let iso = try MetadataFileIO.isoPlan(file)
            for span in iso.exifBlocks {
                if let stripped = try Exiv2Metadata.strip(exif: try MetadataFileIO.read(file, span), fields: fields(removal, plan)) {
                    try MetadataFileIO.write(copy, stripped + [UInt8](repeating: 0, count: span.length - stripped.count), at: span.offset)
                }
            }
            for span in iso.xmpBlocks {
                if let stripped = try Exiv2Metadata.strip(xmp: try MetadataFileIO.read(file, span), fields: fields(removal, plan), drop: drop) {
                    try MetadataFileIO.write(copy, XMPPadding.fit(stripped, into: span.length), at: span.offset)
                }
            }
            for canon in iso.canonBlocks {
                let block = try MetadataFileIO.read(file, canon.span)
                let tags = CanonRawFields.removedTags(canon.block, removal: removal)
                if let stripped = try canonRaw(canon, { () throws(CanonRawFields.Problem) in try CanonRawFields.removing(tags, from: block) }) {
                    try MetadataFileIO.write(copy, stripped, at: canon.span.offset)
                }
            }
        } else {
            _ = try Exiv2Metadata.strip(path: path, fields: fields(removal, plan), drop: drop)
        }
        if let left = try self.plan(copy, removal: removal) { throw .metadataRemains(fields: left.fields + left.names.count) }
    }

    /// A CR3 block's reading or edit, its problem worded as the file's.
    private static func canonRaw<T>(_ canon: IsoLocationPlan.CanonBlock, _ body: () throws(CanonRawFields.Problem) -> T) throws(DerivativeProblem) -> T {
        do {
            return try body()
        } catch {
            throw .metadata("its Canon \(canon.block.rawValue) block at byte \(canon.span.offset): \(error)")
        }
    }
}
