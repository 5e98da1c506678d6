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
        var generator = SystemRandomNumberGenerator()
        let (live, plain, refused) = try store.write { tx in
            let trips = try tx.insertAlbum(parent: AlbumTree.rootID, name: FileName("Trips")!)
            let video = try tx.insertMember(album: trips, name: FileName("IMG_1.MOV")!, mediaType: .video, file: facts(1, mtime: 90),
                                            generator: &generator)
            _ = try tx.insertMember(album: trips, name: FileName("IMG_1.HEIC")!, mediaType: .image, file: facts(2, mtime: 40),
                                    joining: video.asset, generator: &generator)
            let plain = try tx.insertMember(album: AlbumTree.rootID, name: FileName("cat.jpg")!, mediaType: .image,
                                            file: facts(3, mtime: 70), generator: &generator)
            let refused = try tx.insertMember(album: AlbumTree.rootID, name: FileName("shared.jpg")!, mediaType: .image,
                                              file: facts(4, mtime: 10), refusal: .writableByOthers, generator: &generator)
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
}
