import PhotoLibCore
import PhotoLibStore
import Testing

@Suite("Listing keys: what a page of assets is sorted and filtered by")
struct ListingKeyTests {
    func facts(_ inode: UInt64, mtime: Int64) -> FileFacts {
        FileFacts(device: 1, inode: inode, size: 10, modificationTime: mtime, permissions: 0o644)
    }

    @Test("a Live Photo is keyed by its photo whichever member came first; filters pick assets, not member rows")
    func keys() throws {
        let store = try Store(inMemory: ())
        let (live, plain, refused) = try store.write { tx in
            let trips = try tx.insertAlbum(parent: AlbumTree.rootID, name: FileName("Trips")!)
            let video = try tx.insertMember(album: trips, name: FileName("IMG_1.MOV")!, mediaType: .video, file: facts(1, mtime: 90))
            _ = try tx.insertMember(album: trips, name: FileName("IMG_1.HEIC")!, mediaType: .image, file: facts(2, mtime: 40),
                                    joining: video.asset)
            let plain = try tx.insertMember(album: AlbumTree.rootID, name: FileName("cat.jpg")!, mediaType: .image,
                                            file: facts(3, mtime: 70))
            let refused = try tx.insertMember(album: AlbumTree.rootID, name: FileName("shared.jpg")!, mediaType: .image,
                                              file: facts(4, mtime: 10), refusal: .writableByOthers)
            return (video.asset, plain.asset, refused.asset)
        }
        let all = try store.read { try $0.listingKeys(ListingFilter()) }
        #expect(all.count == 3)
        let liveKey = try #require(all.first { $0.rowID == live })
        #expect(liveKey.name == Array("IMG_1.HEIC".utf8) && liveKey.modificationTime == 40)

        #expect(try store.read { try $0.listingKeys(ListingFilter(nameContains: Array("mov".utf8))) }.map(\.rowID) == [live])
        #expect(try store.read { try $0.listingKeys(ListingFilter(mediaType: .live)) }.map(\.rowID) == [live])
        #expect(try store.read { try $0.listingKeys(ListingFilter(refusedOnly: true)) }.map(\.rowID) == [refused])
        #expect(try store.read { try $0.listingKeys(ListingFilter(albums: [AlbumTree.rootID])) }.map(\.rowID).sorted() == [plain, refused].sorted())

        let records = try store.read { try $0.assets(rowIDs: [refused, 999, live]) }
        #expect(records.map(\.rowID) == [refused, live])
    }

    @Test("a search matches names byte for byte, ASCII letters in either case, and follows a rename")
    func nameSearch() throws {
        let store = try Store(inMemory: ())
        // "ÉTÉ" in UTF-8, and a name that is not UTF-8 at all: neither is folded beyond ASCII.
        let summer = FileName(bytes: [0xC3, 0x89, 0x54, 0xC3, 0x89, 0x2E, 0x6A, 0x70, 0x67])!
        let broken = FileName(bytes: [0x42, 0xFF, 0x41, 0x43, 0x48, 0x2E, 0x6A, 0x70, 0x67])!  // "B\xFFACH.jpg"
        let (a, b, c) = try store.write { tx in
            let a = try tx.insertMember(album: AlbumTree.rootID, name: FileName("Beach_Day.JPG")!, mediaType: .image,
                                        file: facts(1, mtime: 1))
            let b = try tx.insertMember(album: AlbumTree.rootID, name: summer, mediaType: .image, file: facts(2, mtime: 2))
            let c = try tx.insertMember(album: AlbumTree.rootID, name: broken, mediaType: .image, file: facts(3, mtime: 3))
            return (a, b, c)
        }
        func found(_ text: [UInt8]) throws -> [Int64] {
            try store.read { try $0.listingKeys(ListingFilter(nameContains: text)) }.map(\.rowID).sorted()
        }
        #expect(try found(Array("BEACH".utf8)) == [a.asset])
        #expect(try found(Array("each_d".utf8)) == [a.asset])
        #expect(try found(Array(".jpg".utf8)) == [a.asset, b.asset, c.asset].sorted())
        #expect(try found([0xC3, 0x89, 0x74]) == [b.asset], "ASCII folds around the bytes of É")
        #expect(try found([0xC3, 0xA9]) == [], "é is not É: only ASCII is folded")
        #expect(try found([0xFF, 0x61, 0x63]) == [c.asset], "a byte that is not UTF-8 is matched as it is")
        #expect(try store.read { try $0.assets(albums: nil, mediaType: nil, nameContains: Array("beach".utf8)) }.map(\.rowID) == [a.asset])

        try store.write { tx in
            var renamed = a
            renamed.name = FileName("Sunset.jpg")!
            try tx.updateMember(renamed)
        }
        #expect(try found(Array("beach".utf8)) == [])
        #expect(try found(Array("SUNSET".utf8)) == [a.asset])
    }
}
