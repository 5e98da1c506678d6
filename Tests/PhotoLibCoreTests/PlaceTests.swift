import Testing
@testable import PhotoLibCore

@Suite("Places: the gazetteer, names in every language, GPS as metadata writes it")
struct PlaceTests {
    static func entry(_ id: Int64, _ city: String, _ latitude: Double, _ longitude: Double, population: UInt32 = 20_000,
                      region: String = "", regionCode: String = "", country: String = "France", code: String = "FR") -> GazetteerEntry {
        GazetteerEntry(id: id, city: city, region: region, regionCode: regionCode, country: country, countryCode: code,
                       coordinate: GeoCoordinate(latitude: latitude, longitude: longitude)!, population: population)
    }

    static let paris = entry(2_988_507, "Paris", 48.85341, 2.3488, population: 2_138_551, region: "Île-de-France Region", regionCode: "11")
    static let neuilly = entry(2_990_611, "Neuilly-sur-Seine", 48.8846, 2.26965, population: 60_501, region: "Île-de-France Region", regionCode: "11")
    static let rennes = entry(2_983_990, "Rennes", 48.11198, -1.67429, population: 209_375, region: "Brittany Region", regionCode: "53")
    static let vitre = entry(2_967_970, "Vitré", 48.12297, -1.20853, population: 15_908, region: "Brittany Region", regionCode: "53")
    static let suva = entry(2_198_148, "Suva", -18.14161, 178.44149, population: 77_366, country: "Fiji", code: "FJ")
    static let gazetteer = Gazetteer([paris, neuilly, rennes, vitre, suva])

    @Test("(0, 0), what a camera without a fix writes, and values off the Earth are no coordinate")
    func coordinates() {
        #expect(GeoCoordinate(latitude: 0, longitude: 0) == nil)
        #expect(GeoCoordinate(latitude: 91, longitude: 2) == nil)
        #expect(GeoCoordinate(latitude: 48, longitude: .nan) == nil)
        let distance = Self.paris.coordinate.kilometres(to: Self.rennes.coordinate)
        #expect(abs(distance - 308) < 3, "Paris to Rennes is about 308 km: \(distance)")
    }

    @Test("a photo is in the city whose edge is nearest: the Eiffel Tower is in Paris, Neuilly's town hall in Neuilly")
    func bigCitiesClaimTheirStreets() {
        #expect(Self.gazetteer.nearest(GeoCoordinate(latitude: 48.8584, longitude: 2.2945)!)?.city == "Paris")
        #expect(Self.gazetteer.nearest(GeoCoordinate(latitude: 48.8849, longitude: 2.2683)!)?.city == "Neuilly-sur-Seine")
    }

    @Test("between two towns, the nearer edge wins; the countryside goes to the small town beside it, not the city far off")
    func betweenTwoPlaces() {
        // Rennes reaches 4.6 km from its centre, Vitré 2 km; they are 35 km apart.
        #expect(Self.gazetteer.nearest(GeoCoordinate(latitude: 48.117, longitude: -1.46)!)?.city == "Rennes", "18 km from Vitré, 15 from Rennes")
        #expect(Self.gazetteer.nearest(GeoCoordinate(latitude: 48.12, longitude: -1.33)!)?.city == "Vitré", "9 km from Vitré, 25 from Rennes")
    }

    @Test("out at sea, far from any town, is no place; across the antimeridian is found")
    func farAndAcross() {
        #expect(Self.gazetteer.nearest(GeoCoordinate(latitude: 46.0, longitude: -8.0)!) == nil, "the Bay of Biscay")
        #expect(Self.gazetteer.nearest(GeoCoordinate(latitude: -18.2, longitude: -179.9)!) == nil, "Suva is 175 km away: beyond the reach")
        let near = Gazetteer([Self.suva], reach: 250)
        #expect(near.nearest(GeoCoordinate(latitude: -18.2, longitude: -179.9)!)?.city == "Suva", "1.7 degrees east, across 180")
    }

    @Test("a gettext catalog is read in place: each key's translation, none for a key it lacks, either byte order")
    func catalog() throws {
        for bigEndian in [false, true] {
            let catalog = try GettextCatalog(Self.mo(["2983990": "Rennes", "FR": "France", "FR.53": "Bretagne", "JP": "Japon"], bigEndian: bigEndian))
            #expect(catalog.translation(of: "FR.53") == "Bretagne")
            #expect(catalog.translation(of: "JP") == "Japon")
            #expect(catalog.translation(of: "2983990") == "Rennes")
            #expect(catalog.translation(of: "DE") == nil)
        }
        #expect(throws: GettextCatalog.Problem.notACatalog) { try GettextCatalog(Array("not a catalog, just text".utf8) + [UInt8](repeating: 0, count: 8)) }
        #expect(throws: GettextCatalog.Problem.truncated) { try GettextCatalog(Array(Self.mo(["a": "b"], bigEndian: false).prefix(30))) }
    }

    @Test("a place's names: English first, then every catalog's for its city, region and country, each once")
    func names() throws {
        let french = try GettextCatalog(Self.mo(["FR": "France", "FR.53": "Bretagne"], bigEndian: false))
        let japanese = try GettextCatalog(Self.mo(["FR": "フランス", "FR.53": "ブルターニュ地域圏", "2983990": "レンヌ"], bigEndian: false))
        let place = PlaceRecord(Self.rennes, catalogs: [french, japanese])
        #expect(place.names == ["Rennes", "Brittany Region", "France", "Bretagne", "レンヌ", "ブルターニュ地域圏", "フランス"])
        #expect(place.described == "Rennes, Brittany Region, France")
        #expect(PlaceRecord(Self.suva, catalogs: []).described == "Suva, Fiji")
    }

    @Test("GPS as Exif writes it (rationals and a hemisphere) and as XMP writes it; anything else is no location")
    func gps() {
        let rennes = GPSText.coordinate(latitude: "48/1 6/1 4313/100", latitudeRef: "N", longitude: "1/1 40/1 2744/100", longitudeRef: "W")
        #expect(abs((rennes?.latitude ?? 0) - 48.11198) < 0.0001 && abs((rennes?.longitude ?? 0) + 1.67429) < 0.0001, "\(String(describing: rennes))")
        let xmp = GPSText.coordinate(latitude: "47,59.76N", latitudeRef: "", longitude: "4,5.88W", longitudeRef: "")
        #expect(abs((xmp?.latitude ?? 0) - 47.996) < 0.0001 && abs((xmp?.longitude ?? 0) + 4.098) < 0.0001, "\(String(describing: xmp))")
        #expect(GPSText.coordinate(latitude: "48/0 6/1 0/1", latitudeRef: "N", longitude: "1/1 0/1 0/1", longitudeRef: "W") == nil, "a zero denominator")
        #expect(GPSText.coordinate(latitude: "48/1 6/1 0/1", latitudeRef: "Q", longitude: "1/1 0/1 0/1", longitudeRef: "W") == nil)
        #expect(GPSText.coordinate(latitude: "0/1 0/1 0/1", latitudeRef: "N", longitude: "0/1 0/1 0/1", longitudeRef: "E") == nil, "no fix")
        #expect(GPSText.coordinate(latitude: "", latitudeRef: "", longitude: "", longitudeRef: "") == nil)
    }

    @Test("a finding is stored as the place's ID, 0 for nowhere, -1 for a file that could not be read")
    func finding() {
        #expect(PlaceFinding.decide(GeoCoordinate(latitude: 48.1, longitude: -1.68), in: Self.gazetteer).stored == Self.rennes.id)
        #expect(PlaceFinding.decide(nil, in: Self.gazetteer) == .nowhere)
        #expect(PlaceFinding.nowhere.stored == 0 && PlaceFinding.unreadable.stored == -1)
    }

    @Test("the gazetteer is asked for only when a file says where it was taken")
    func gazetteerOnlyWhenNeeded() {
        var asked = 0
        #expect(PlaceFinding.decide(nil) { asked += 1; return Self.gazetteer } == .nowhere)
        #expect(asked == 0, "a file without a location loads nothing")
        #expect(PlaceFinding.decide(GeoCoordinate(latitude: 48.1, longitude: -1.68)) { asked += 1; return Self.gazetteer }.stored == Self.rennes.id)
        #expect(asked == 1)
    }

    /// A `.mo` file of these entries, as msgfmt writes one (keys sorted by their bytes).
    static func mo(_ entries: [String: String], bigEndian: Bool) -> [UInt8] {
        let sorted = entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        func word(_ value: Int) -> [UInt8] {
            let bytes = (0..<4).map { UInt8((UInt32(value) >> (8 * $0)) & 0xff) }
            return bigEndian ? bytes.reversed() : bytes
        }
        let count = sorted.count
        let originals = 28, translations = 28 + count * 8
        var strings: [UInt8] = []
        var originalTable: [UInt8] = [], translationTable: [UInt8] = []
        let stringsStart = translations + count * 8
        for (key, _) in sorted {
            originalTable += word(key.utf8.count) + word(stringsStart + strings.count)
            strings += Array(key.utf8) + [0]
        }
        for (_, value) in sorted {
            translationTable += word(value.utf8.count) + word(stringsStart + strings.count)
            strings += Array(value.utf8) + [0]
        }
        return word(0x9504_12de) + word(0) + word(count) + word(originals) + word(translations) + word(0) + word(0)
            + originalTable + translationTable + strings
    }
}

@Suite("The Albums view's figures")
struct AlbumOutlineTests {
    @Test("an album counts what is below it, and its cover is the newest of all of it; an empty album has none")
    func summaries() {
        var tree = AlbumTree()
        tree.insert(id: 2, parent: AlbumTree.rootID, name: FileName("Trips")!)
        tree.insert(id: 3, parent: 2, name: FileName("Brittany")!)
        tree.insert(id: 4, parent: 2, name: FileName("Japan")!)
        tree.insert(id: 5, parent: AlbumTree.rootID, name: FileName("Empty")!)
        let direct: [AlbumTree.ID: AlbumOutline.Direct] = [
            AlbumTree.rootID: .init(assets: 1, newest: (asset: 9, mtime: 900)),
            3: .init(assets: 2, newest: (asset: 31, mtime: 500)),
            4: .init(assets: 1, newest: (asset: 41, mtime: 300)),
        ]
        let outline = AlbumOutline.summarize(tree, direct: direct)
        #expect(outline[2] == .init(assets: 3, cover: 31), "Trips: Brittany's and Japan's, Brittany's newest")
        #expect(outline[3] == .init(assets: 2, cover: 31))
        #expect(outline[5] == .init(assets: 0, cover: nil))
        #expect(outline[AlbumTree.rootID] == nil, "the library itself is not an album")
    }
}
