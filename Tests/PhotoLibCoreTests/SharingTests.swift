import PhotoLibCore
import Testing

@Suite("What leaves with a picked photo, decided")
struct SharingTests {
    static func app(location: LocationPolicy, captions: Bool) -> AppRecord {
        var record = AppRecord(id: AppID("org.example.App")!, uid: 4000, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                               viewName: FileName("view")!, location: location, assetIDs: AppAssetIDs(key: Array(repeating: 7, count: 16))!)
        record.captions = captions
        return record
    }

    @Test("the person's choice wins; what they do not say comes from the app's settings; location is never more than the app may have")
    func choiceAndDefaults() throws {
        let precise = Self.app(location: .precise, captions: false)
        #expect(try SharingChoice.answer(location: nil, captions: nil, app: precise) == SharingChoice(location: true, captions: false))
        #expect(try SharingChoice.answer(location: false, captions: true, app: precise) == SharingChoice(location: false, captions: true))
        let none = Self.app(location: .none, captions: true)
        #expect(try SharingChoice.answer(location: nil, captions: nil, app: none) == SharingChoice(location: false, captions: true))
        #expect(throws: PhotoLibError.self) { try SharingChoice.answer(location: true, captions: nil, app: none) }
        #expect(SharingChoice(location: false, captions: true).locationPolicy == .none)
    }

    @Test("serial numbers always go; captions and people's fields go unless shared")
    func removal() {
        let serials = MetadataRemoval(captions: false).prefixes
        #expect(serials.contains("Exif.Photo.BodySerialNumber") && serials.contains("Xmp.aux.SerialNumber"))
        #expect(!serials.contains("Xmp.dc.description"))
        let all = MetadataRemoval(captions: true).prefixes
        #expect(all.contains("Xmp.dc.description") && all.contains("Xmp.mwg-rs.Regions") && all.contains("Iptc.Application2.Caption"))
        #expect(Set(PeopleNames.sourcePrefixes).isSubset(of: Set(all)), "every field names are read from goes whole")
        #expect(!all.contains { $0.hasPrefix("Xmp.dc.subject") || $0.hasPrefix("Iptc.Application2.Keywords") }, "keyword lists are cleaned by value")
    }

    @Test("people are read from face regions, IPTC's person fields and the people branch of keyword trees; a pet's region and other branches are not people")
    func peopleNames() {
        let values: [(key: String, value: String)] = [
            ("Xmp.mwg-rs.Regions/mwg-rs:RegionList[1]/mwg-rs:Name", "Alice Martin"),
            ("Xmp.mwg-rs.Regions/mwg-rs:RegionList[1]/mwg-rs:Type", "Face"),
            ("Xmp.mwg-rs.Regions/mwg-rs:RegionList[2]/mwg-rs:Name", "Rex"),
            ("Xmp.mwg-rs.Regions/mwg-rs:RegionList[2]/mwg-rs:Type", "Pet"),
            ("Xmp.MP.RegionInfo/MPRI:Regions[1]/MPReg:PersonDisplayName", "Bob Leroy"),
            ("Xmp.iptcExt.PersonInImage", " Alice Martin "),
            ("Xmp.iptcExt.PersonInImageWDetails[1]/iptcExt:PersonName[1]", "Chloé Durand"),
            ("Xmp.lr.hierarchicalSubject", "People|Family|Dan Roy"),
            ("Xmp.lr.hierarchicalSubject", "Places|Brittany|Rennes"),
            ("Xmp.digiKam.TagsList", "People/Eve"),
            ("Xmp.digiKam.TagsList", "Events/Wedding"),
        ]
        #expect(PeopleNames.names(in: values) == ["Alice Martin", "Bob Leroy", "Chloé Durand", "Dan Roy", "Eve"])
        #expect(PeopleNames.names(in: [("Xmp.mwg-rs.Regions/mwg-rs:RegionList[1]/mwg-rs:Name", "Unnamed area")]) == ["Unnamed area"],
                "a region of no stated type is taken as a face: a name too many is safer than one too few")
    }
}
