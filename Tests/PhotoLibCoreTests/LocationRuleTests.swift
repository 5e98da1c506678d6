import PhotoLibCore
import Testing

/// The pure side of location per app: where an MP4/HEIF keeps its location,
/// how a rewritten XMP packet keeps its room, which headers wake exiv2, and
/// which file an entry links.
@Suite("Location rules")
struct LocationRuleTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }
    static func box(_ type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        box(String(decoding: type, as: UTF8.self), payload).prefix(4) + type + payload
    }
    static let xyz: [UInt8] = [0xA9, 0x78, 0x79, 0x7A]
    static let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8))

    @Test("a movie's location atoms, wherever phones put them, and its XMP, are found; nothing else is")
    func moviePlan() throws {
        let udtaXYZ = Self.box(Self.xyz, Array("+48.8577+002.2950/".utf8))
        let udta = Self.box("udta", udtaXYZ + Self.box("loci", [0, 0, 0, 0, 1, 2]))
        let keys = Self.box("keys", [0, 0, 0, 0, 0, 0, 0, 2]
            + Self.box("mdta", Array("com.apple.quicktime.make".utf8))
            + Self.box("mdta", Array("com.apple.quicktime.location.ISO6709".utf8)))
        let make = Self.box([0, 0, 0, 1], Self.box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array("Phone".utf8)))
        let place = Self.box([0, 0, 0, 2], Self.box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array("+48.85+002.29/".utf8)))
        let meta = Self.box("meta", Self.box("hdlr", [UInt8](repeating: 0, count: 25)) + keys + Self.box("ilst", make + place))
        let moov = Self.box("moov", Self.box("mvhd", [UInt8](repeating: 0, count: 100)) + udta + meta)
        let xmpPacket = Array("<?xpacket begin?><x:xmpmeta/><?xpacket end=\"w\"?>".utf8)
        let uuid = Self.box("uuid", [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC] + xmpPacket)
        let file = Self.ftyp + moov + uuid + Self.box("mdat", [UInt8](repeating: 7, count: 64))
        let plan = try IsoLocationPlan.plan(IsoMediaBytes(file))

        let moovAt = Self.ftyp.count
        let udtaAt = moovAt + 8 + 108
        let metaAt = udtaAt + udta.count
        let placeAt = metaAt + 8 + 33 + keys.count + 8 + make.count
        #expect(plan.blankBoxes == [
            .init(offset: UInt64(udtaAt + 8), length: udtaXYZ.count),
            .init(offset: UInt64(udtaAt + 8 + udtaXYZ.count), length: 14),
            .init(offset: UInt64(placeAt), length: place.count),
        ])
        #expect(plan.xmpBlocks == [.init(offset: UInt64(moovAt + moov.count + 24), length: xmpPacket.count)])
        #expect(plan.exifBlocks.isEmpty)
        #expect(plan.moviePosition == "+48.85+002.29/", "Apple's key is the movie's position (this ©xyz has no length and language)")

        // A blanked box keeps its size and becomes `free`, its payload zero.
        let blanked = IsoLocationPlan.blankedBox(original: Array(udtaXYZ.prefix(16)), length: udtaXYZ.count)
        #expect(blanked.count == udtaXYZ.count)
        #expect(Array(blanked[0..<4]) == Array(udtaXYZ[0..<4]))
        #expect(Array(blanked[4..<8]) == Array("free".utf8))
        #expect(blanked[8...].allSatisfy { $0 == 0 })
    }

    @Test("a movie's position is read from ©xyz as QuickTime writes it in udta (a length, a language, the text) and in an ilst item's data")
    func moviePosition() throws {
        let text = Array("+48.8584+002.2945+035.000/".utf8)
        let udta = Self.box("udta", Self.box(Self.xyz, [0, UInt8(text.count), 0x15, 0xC7] + text + [0, 0]))
        let inUdta = Self.ftyp + Self.box("moov", Self.box("mvhd", [UInt8](repeating: 0, count: 100)) + udta)
        #expect(try IsoLocationPlan.plan(IsoMediaBytes(inUdta)).moviePosition == "+48.8584+002.2945+035.000/")
        let item = Self.box(Self.xyz, Self.box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array("-33.8688+151.2093/".utf8)))
        let meta = Self.box("meta", Self.box("hdlr", [UInt8](repeating: 0, count: 25)) + Self.box("ilst", item))
        let inIlst = Self.ftyp + Self.box("moov", Self.box("mvhd", [UInt8](repeating: 0, count: 100)) + meta)
        #expect(try IsoLocationPlan.plan(IsoMediaBytes(inIlst)).moviePosition == "-33.8688+151.2093/")
        let cut = Self.ftyp + Self.box("moov", Self.box("udta", Self.box(Self.xyz, [0, 200, 0x15, 0xC7] + text)))
        let plan = try IsoLocationPlan.plan(IsoMediaBytes(cut))
        #expect(plan.moviePosition == nil && plan.blankBoxes.count == 1, "a length past the atom: no position, the atom still blanked")
    }

    @Test("ISO 6709 points as phones and tools write them: degrees, degrees and minutes, and seconds; with an altitude or a CRS; nothing else")
    func iso6709() {
        func near(_ coordinate: GeoCoordinate?, _ latitude: Double, _ longitude: Double) -> Bool {
            guard let coordinate else { return false }
            return abs(coordinate.latitude - latitude) < 1e-6 && abs(coordinate.longitude - longitude) < 1e-6
        }
        #expect(near(ISO6709.coordinate("+48.8584+002.2945+035.000/"), 48.8584, 2.2945))
        #expect(near(ISO6709.coordinate("+48.8584+002.2945/"), 48.8584, 2.2945))
        #expect(near(ISO6709.coordinate("-33.8688+151.2093"), -33.8688, 151.2093))
        #expect(near(ISO6709.coordinate("+40.7128-074.0060CRSWGS_84/"), 40.7128, -74.006))
        let minutes: (Double, Double) = (48 + 51.504 / 60, 2 + 17.67 / 60)
        #expect(near(ISO6709.coordinate("+4851.504+00217.670/"), minutes.0, minutes.1))
        let latitudeSeconds: Double = 48 + 51.0 / 60 + 30.24 / 3600
        let longitudeSeconds: Double = 2 + 17.0 / 60 + 40.2 / 3600
        #expect(near(ISO6709.coordinate("+485130.24+0021740.20/"), latitudeSeconds, longitudeSeconds))
        for bad in ["", "48.8584+002.2945/", "+48.85+02.29/", "+48.8584+002.2945x", "+4899.0+00217.670/", "+48.+002.2945/",
                    "+00.0000+000.0000/", "+95.0+002.0/", "+48.8584"] {
            #expect(ISO6709.coordinate(bad) == nil, "\(bad)")
        }
    }

    @Test("a HEIF's Exif item (past its TIFF offset) and XMP item are found through iinf and iloc, in the file or in idat")
    func heifPlan() throws {
        func infe(_ id: UInt16, _ type: String, _ contentType: String = "") -> [UInt8] {
            Self.box("infe", [2, 0, 0, 0, UInt8(id >> 8), UInt8(id & 0xFF), 0, 0] + Array(type.utf8) + [0]
                     + (contentType.isEmpty ? [] : Array(contentType.utf8) + [0]))
        }
        let iinf = Self.box("iinf", [0, 0, 0, 0, 0, 3] + infe(1, "hvc1") + infe(2, "Exif") + infe(3, "mime", "application/rdf+xml"))
        let exifPayload: [UInt8] = [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + Array("MM".utf8) + [0, 42] + [UInt8](repeating: 0, count: 20)
        let xmp = Array("<x:xmpmeta/>".utf8)
        // iloc v1: offset, length and base-offset sizes 4; items: 1 and 2 in the file, 3 in idat.
        func item(_ id: UInt16, method: UInt8, offset: UInt32, length: UInt32) -> [UInt8] {
            [UInt8(id >> 8), UInt8(id & 0xFF), 0, method, 0, 0, 0, 0, 0, 0, 0, 1]
                + [24, 16, 8, 0].map { UInt8(offset >> $0 & 0xFF) } + [24, 16, 8, 0].map { UInt8(length >> $0 & 0xFF) }
        }
        func meta(exifAt: UInt32) -> [UInt8] {
            let iloc = Self.box("iloc", [1, 0, 0, 0, 0x44, 0x40, 0, 3]
                + item(1, method: 0, offset: exifAt + UInt32(exifPayload.count), length: 10)
                + item(2, method: 0, offset: exifAt, length: UInt32(exifPayload.count))
                + item(3, method: 1, offset: 0, length: UInt32(xmp.count)))
            return Self.box("meta", [0, 0, 0, 0] + Self.box("hdlr", [UInt8](repeating: 0, count: 24)) + iinf + iloc + Self.box("idat", xmp))
        }
        let ftyp = Self.box("ftyp", Array("heicmif1heic".utf8))
        let metaLength = meta(exifAt: 0).count
        let exifAt = UInt32(ftyp.count + metaLength + 8)
        let file = ftyp + meta(exifAt: exifAt) + Self.box("mdat", exifPayload + [UInt8](repeating: 9, count: 10))
        let plan = try IsoLocationPlan.plan(IsoMediaBytes(file))
        #expect(plan.exifBlocks == [.init(offset: UInt64(exifAt) + 10, length: exifPayload.count - 10)])
        #expect(file[Int(plan.exifBlocks[0].offset)..<Int(plan.exifBlocks[0].offset) + 4].elementsEqual(Array("MM".utf8) + [0, 42]))
        #expect(plan.xmpBlocks == [.init(offset: UInt64(ftyp.count + metaLength - xmp.count), length: xmp.count)])
        #expect(plan.blankBoxes.isEmpty)
    }

    /// A little-endian TIFF of one IFD holding these tags (each a SHORT of value 1), as a CR3's `CMT` blocks are.
    static func tiff(tags: [UInt16]) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, UInt8(tags.count), 0]
        for tag in tags { bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), 3, 0, 1, 0, 0, 0, 1, 0, 0, 0] }
        return bytes + [0, 0, 0, 0]
    }

    @Test("a CR3's GPS IFD (CMT4 in Canon's uuid box of moov) is location when it holds any field, or cannot be read; CMT1 never is")
    func canonRawPlan() throws {
        let ftyp = Self.box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8))
        func file(cmt4: [UInt8]) -> (bytes: [UInt8], cmt4At: Int, cmt4Length: Int) {
            let cmt1 = Self.box("CMT1", Self.tiff(tags: [0x010F, 0x0110, 0x8825]))
            let gps = Self.box("CMT4", cmt4)
            let canon = Self.box("uuid", CanonRawGPS.metadataUUID + Self.box("CNCV", Array("CanonCR3_001/00.09.00/00.00.00".utf8)) + cmt1 + gps
                                 + Self.box("THMB", [UInt8](repeating: 0, count: 32)))
            let moov = Self.box("moov", canon + Self.box("mvhd", [UInt8](repeating: 0, count: 100)))
            let bytes = ftyp + moov + Self.box("mdat", [UInt8](repeating: 7, count: 64))
            return (bytes, ftyp.count + 8 + 8 + 16 + 8 + 30 + cmt1.count, gps.count)
        }
        // Latitude and its reference, longitude and its reference, the version: a camera with GPS.
        let located = file(cmt4: Self.tiff(tags: [0, 1, 2, 3, 4]))
        let plan = try IsoLocationPlan.plan(IsoMediaBytes(located.bytes))
        #expect(plan.blankBoxes == [.init(offset: UInt64(located.cmt4At), length: located.cmt4Length)])
        // CMT1 is listed for what else an app may not have: its payload, after its 8-byte header.
        let cmt1Length = Self.tiff(tags: [0x010F, 0x0110, 0x8825]).count
        #expect(plan.canonBlocks == [.init(.imageIFD, .init(offset: UInt64(located.cmt4At - cmt1Length), length: cmt1Length))])
        // The version alone is still the GPS IFD, as a JPEG's would be.
        let version = file(cmt4: Self.tiff(tags: [0]))
        #expect(try IsoLocationPlan.plan(IsoMediaBytes(version.bytes)).blankBoxes.count == 1)
        // An empty IFD says nothing.
        #expect(try IsoLocationPlan.plan(IsoMediaBytes(file(cmt4: Self.tiff(tags: [])).bytes)).blankBoxes.isEmpty)
        // Not a TIFF, or one whose entries run past the block: may hold a location.
        #expect(try IsoLocationPlan.plan(IsoMediaBytes(file(cmt4: Array("not a tiff at all".utf8)).bytes)).blankBoxes.count == 1)
        #expect(try IsoLocationPlan.plan(IsoMediaBytes(file(cmt4: Array(Self.tiff(tags: [1, 2, 3]).prefix(20))).bytes)).blankBoxes.count == 1)
        // Big-endian blocks are read as well.
        #expect(CanonRawGPS.holdsLocation([0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0, 2, 0, 5, 0, 0, 0, 3, 0, 0, 0, 26, 0, 0, 0, 0]))
        #expect(!CanonRawGPS.holdsLocation([0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]))
    }

    @Test("a box that claims more than its parent holds is malformed, not skipped")
    func malformed() {
        let file = Self.ftyp + [0, 0, 0x10, 0] + Array("moov".utf8) + [1, 2, 3]
        #expect(throws: IsoMediaProblem.self) { try IsoLocationPlan.plan(IsoMediaBytes(file)) }
        let moov = Self.box("moov", Self.box("udta", [0, 0, 0, 0x40] + Array("©xyz".utf8)))
        #expect(throws: IsoMediaProblem.self) { try IsoLocationPlan.plan(IsoMediaBytes(Self.ftyp + moov)) }
    }

    @Test("a rewritten XMP packet is padded inside its wrapper; one left empty becomes a valid empty packet")
    func xmpPadding() {
        let packet = Array("<?xpacket begin=\"\"?><x:xmpmeta/><?xpacket end=\"w\"?>".utf8)
        let fitted = XMPPadding.fit(packet, into: packet.count + 10)
        #expect(fitted.count == packet.count + 10)
        #expect(String(decoding: fitted, as: UTF8.self).hasSuffix("/>          <?xpacket end=\"w\"?>"))
        let empty = XMPPadding.fit([], into: 400)
        #expect(empty.count == 400)
        #expect(String(decoding: empty, as: UTF8.self).contains("<x:xmpmeta"))
        #expect(String(decoding: empty, as: UTF8.self).hasSuffix("<?xpacket end=\"w\"?>"))
        #expect(XMPPadding.fit([], into: 20) == [UInt8](repeating: 0x20, count: 20), "no room for a packet: blank")
    }

    @Test("which headers carry metadata: photos and movies do; text and truncated files do not")
    func sniffing() {
        #expect(MetadataContainer.sniff([0xFF, 0xD8, 0xFF, 0xE1, 0, 0]) == .exiv2)
        #expect(MetadataContainer.sniff([0x89] + Array("PNG\r\n".utf8) + [0x1A, 0x0A]) == .exiv2)
        #expect(MetadataContainer.sniff(Array("II".utf8) + [0x2A, 0]) == .exiv2)
        #expect(MetadataContainer.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .exiv2)
        #expect(MetadataContainer.sniff([0, 0, 0, 0x18] + Array("ftypheic".utf8)) == .isoMedia)
        #expect(MetadataContainer.sniff(Array("photo".utf8)) == .none)
        #expect(MetadataContainer.sniff([0xFF, 0xD8]) == .none)
        #expect(MetadataContainer.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)) == .none)
    }

    @Test("precise gets the original; none gets the original without a location, the derivative with one, nothing when unknown")
    func entrySource() {
        let file = FileFacts(device: 1, inode: 10, size: 100, modificationTime: 5, permissions: 0o644)
        #expect(EntrySource.decide(policy: .precise, file: file, check: nil) == .original)
        #expect(EntrySource.decide(policy: .none, file: file, check: nil) == .needsCheck)
        #expect(EntrySource.decide(policy: .none, file: file, check: LocationCheck(of: file, outcome: .noLocation)) == .original)
        #expect(EntrySource.decide(policy: .none, file: file, check: LocationCheck(of: file, outcome: .derived(inode: 77, size: 90)))
                == .derivative(inode: 77, size: 90))
        #expect(EntrySource.decide(policy: .none, file: file, check: LocationCheck(of: file, outcome: .cannotTell("bad")))
                == .withheld(reason: "bad"))
        var edited = file
        edited.modificationTime = 6
        #expect(EntrySource.decide(policy: .none, file: edited, check: LocationCheck(of: file, outcome: .noLocation)) == .needsCheck,
                "an edit makes the check stale")
        #expect(LocationPolicy.newAppDefault == .none)
        #expect(MemberAppearance.of(policy: .none, file: file, check: LocationCheck(of: file, outcome: .derived(inode: 77, size: 90)))
                == .copy(size: 90))
        #expect(MemberAppearance.of(policy: .none, file: file, check: LocationCheck(of: file, outcome: .cannotTell("bad"))) == .hidden)
        #expect(MemberAppearance.of(policy: .precise, file: file, check: LocationCheck(of: file, outcome: .cannotTell("bad"))) == .original)
    }

    @Test("a file its owner may not read is withheld from none by its mode, whatever check there is; a chmod makes its own check stale")
    func unreadableByOwner() {
        let readable = FileFacts(device: 1, inode: 10, size: 100, modificationTime: 5, permissions: 0o644)
        var unreadable = readable
        unreadable.permissions = 0o200
        #expect(!unreadable.isReadableByOwner && readable.isReadableByOwner)
        let withheld = EntrySource.withheld(reason: LocationCheck.unreadableReason)
        #expect(EntrySource.decide(policy: .none, file: unreadable, check: nil) == withheld, "known without a look")
        #expect(EntrySource.decide(policy: .precise, file: unreadable, check: nil) == .original)
        // What the app saw before a chmod to u+r: the copy made after it does not count for the mode before.
        let derived = LocationCheck(of: readable, outcome: .derived(inode: 77, size: 90))
        #expect(EntrySource.decide(policy: .none, file: unreadable, check: derived) == withheld)
        #expect(MemberAppearance.of(policy: .none, file: unreadable, check: derived) == .hidden)
        #expect(MemberAppearance.of(policy: .none, file: readable, check: derived) == .copy(size: 90))
        // The check kept for it holds for that mode alone.
        let check = LocationCheck.unreadable(unreadable)
        #expect(check.isCurrent(for: unreadable) && !check.isCurrent(for: readable))
        #expect(EntrySource.decide(policy: .none, file: readable, check: check) == .needsCheck, "after chmod u+r: looked at again")
        #expect(LocationCheck.unreadableReason.contains("chmod u+r"))
    }

    @Test("what an app is told follows how its members appear: a copy's size, a withheld member left out")
    func viewAssetFollowsAppearance() {
        let file = FileFacts(device: 1, inode: 10, size: 100, modificationTime: 5, permissions: 0o644)
        let photo = LocatedMember(rowID: 1, path: RelativePath(escaped: "a/IMG.HEIC")!, mediaType: .image, file: file)
        let video = LocatedMember(rowID: 2, path: RelativePath(escaped: "a/IMG.MOV")!, mediaType: .video, file: file)
        let asset = LocatedAsset(rowID: 9, id: AssetID("abcdefghjkmnpqrs")!, mediaType: .live, members: [photo, video], ancestry: [])
        let policy = ViewPolicy(layout: .full)
        let shown = policy.viewAsset(asset) { $0.rowID == 1 ? .copy(size: 60) : .hidden }
        #expect(shown?.size == 60)
        #expect(shown?.members == nil, "the video is withheld: one entry left")
        #expect(shown?.mediaType == "image")
        #expect(policy.viewAsset(asset) { _ in .hidden } == nil)
    }

    @Test("location keys: GPS, place names, Apple's location keys; not the camera or the date")
    func fields() {
        #expect(LocationFields.matches(metadataKey: "Exif.GPSInfo.GPSLatitude"))
        #expect(LocationFields.matches(metadataKey: "Xmp.photoshop.City"))
        #expect(LocationFields.matches(metadataKey: "Iptc.Application2.City"))
        #expect(!LocationFields.matches(metadataKey: "Exif.Photo.DateTimeOriginal"))
        #expect(!LocationFields.matches(metadataKey: "Exif.Image.Make"))
        #expect(LocationFields.isLocationKey(Array("com.apple.quicktime.location.ISO6709".utf8)))
        #expect(!LocationFields.isLocationKey(Array("com.apple.quicktime.make".utf8)))
    }
}

/// Capture times and rule grants (SPEC §9).
@Suite("Capture rules")
struct CaptureRuleTests {
    @Test("EXIF, XMP and QuickTime date texts are read; zero and broken dates are not")
    func parsing() {
        #expect(CaptureTime.parse("2024:07:14 10:00:00") == CaptureTime(year: 2024, month: 7, day: 14, hour: 10))
        #expect(CaptureTime.parse("2024-07-14T10:00:00+02:00")?.secondsWithOffset == 1_720_944_000)
        #expect(CaptureTime.parse("2024-07-14T08:00:00Z")?.secondsWithOffset == 1_720_944_000)
        #expect(CaptureTime.parse("2024-07-14T10:00:00.123+0200")?.secondsWithOffset == 1_720_944_000)
        #expect(CaptureTime.parse("2024-07-14") == CaptureTime(year: 2024, month: 7, day: 14))
        #expect(CaptureTime.parse("0000:00:00 00:00:00") == nil, "what cameras write when they do not know")
        #expect(CaptureTime.parse("2024:13:01 00:00:00") == nil)
        #expect(CaptureTime.parse("yesterday") == nil)
        #expect(CaptureTime.parse("2024:07:14 25:00:00") == nil)
        #expect(CaptureTime(year: 1970, month: 1, day: 1, utcOffset: 0).secondsWithOffset == 0)
        #expect(CaptureTime(year: 2000, month: 3, day: 1, utcOffset: 0).secondsWithOffset == 951_868_800, "after a leap day")
    }

    @Test("a rule grants assets taken in its span (end excluded), of its type, and nothing not looked at yet")
    func matching() throws {
        func asset(_ taken: Int64?, _ type: MediaType = .image) -> LocatedAsset {
            let file = FileFacts(device: 1, inode: 1, size: 1, modificationTime: 0, permissions: 0o644)
            let member = LocatedMember(rowID: 1, path: RelativePath(escaped: "a.jpg")!, mediaType: type == .video ? .video : .image,
                                       file: file, takenAt: taken)
            return LocatedAsset(rowID: 1, id: AssetID("abcdefghjkmnpqrs")!, mediaType: type, members: [member], ancestry: [])
        }
        let rule = CaptureRule(id: 1, from: 100, to: 200, mediaType: nil)
        #expect(rule.matches(asset(100)))
        #expect(rule.matches(asset(199)))
        #expect(!rule.matches(asset(200)))
        #expect(!rule.matches(asset(99)))
        #expect(!rule.matches(asset(nil)))
        let videos = CaptureRule(id: 2, from: 100, to: 200, mediaType: .video)
        #expect(videos.matches(asset(150, .video)))
        #expect(!videos.matches(asset(150, .image)))
        let policy = ViewPolicy(layout: .limited, selectedRules: [videos])
        #expect(policy.isGranted(asset(150, .video)))
        #expect(!ViewPolicy(layout: .full, selectedRules: []).entries(asset(150)).isEmpty)
        #expect(throws: PhotoLibError.self) { try CaptureRule.validate(from: 200, to: 100) }
    }
}
