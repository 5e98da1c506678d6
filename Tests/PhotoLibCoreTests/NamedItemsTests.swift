import PhotoLibCore
import Testing

/// What a person names, parsed before the engine sees it: values only.
@Suite("Named photos and albums")
struct NamedItemsTests {
    @Test("a photo is named by its ID, its path in the library, or its absolute path inside the library; an ID's shape may be a file's name too")
    func photos() throws {
        let named = try NamedItems(assets: ["0f3mwkf064937k8m", "Trip/a.jpg", "/home/ana/Pictures/Trip/b.jpg", "/etc/passwd"],
                                   library: "/home/ana/Pictures")
        #expect(named.assets[0].id == AssetID("0f3mwkf064937k8m") && named.assets[0].path == RelativePath(escaped: "0f3mwkf064937k8m"))
        #expect(named.assets[1].id == nil && named.assets[1].path == RelativePath(escaped: "Trip/a.jpg"))
        #expect(named.assets[2].path == RelativePath(escaped: "Trip/b.jpg"))
        #expect(named.assets[3].path == nil, "a path outside the library names nothing in it")
        #expect(named.assets[0].notFound == .unknownAsset("0f3mwkf064937k8m"))
        #expect(named.assets[3].notFound == .notAnAsset(path: "/etc/passwd"))
        #expect(!named.isEmpty && NamedItems.nothing.isEmpty)
    }

    @Test("an album is named by its path; one that cannot be in the library is refused as it is parsed")
    func albums() throws {
        let named = try NamedItems(assets: [], albums: ["Trip", "/home/ana/Pictures/Trip/Day 2"], library: "/home/ana/Pictures/")
        #expect(named.albums.map(\.path) == [RelativePath(escaped: "Trip"), RelativePath(escaped: "Trip/Day 2")])
        #expect(throws: PhotoLibError.unknownAlbum(path: "/srv/other")) {
            try NamedItems(assets: [], albums: ["/srv/other"], library: "/home/ana/Pictures")
        }
    }
}
