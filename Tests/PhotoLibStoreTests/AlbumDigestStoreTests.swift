import PhotoLibCore
import PhotoLibStore
import Testing

/// The albums' digests between a clean stop and the next start (`AlbumDigests`).
@Suite("Album digests in the store")
struct AlbumDigestStoreTests {
    static let owner: UInt32 = 1000

    func file(_ name: String, inode: UInt64, refusal: LinkRefusal? = nil) -> DirectoryPlan.NewFile {
        DirectoryPlan.NewFile(name: FileName(name)!, mediaType: .image,
                              facts: FileFacts(device: 9, inode: inode, birthTime: inode % 2 == 0 ? nil : 77, size: 10, modificationTime: 20,
                                               permissions: refusal == .writableByOthers ? 0o666 : 0o644),
                              refusal: refusal)
    }

    func listed(_ file: DirectoryPlan.NewFile) -> DirectoryPlan.Entry {
        DirectoryPlan.Entry(name: file.name, kind: .file(.found(FileObservation(kind: .regular, facts: file.facts, owner: Self.owner, linkCount: 1))))
    }

    @Test("each album's rows digest as their listing does (files, refusals, sub-albums, an empty album); taken once, whole")
    func takenOnce() throws {
        let store = try Store(inMemory: ())
        let trip = try store.write { try $0.insertAlbum(parent: AlbumTree.rootID, name: FileName("Trip")!) }
        let day = try store.write { try $0.insertAlbum(parent: trip, name: FileName("Day 1")!) }
        let empty = try store.write { try $0.insertAlbum(parent: AlbumTree.rootID, name: FileName("Empty")!) }
        let tripFiles = [file("a.jpg", inode: 1), file("b.jpg", inode: 2, refusal: .writableByOthers)]
        let dayFiles = [file("c.jpg", inode: 3)]
        try store.write { tx in
            _ = try tx.insertNewAssets(album: trip, files: tripFiles)
            _ = try tx.insertNewAssets(album: day, files: dayFiles)
        }
        let key = AlbumDigest.Key(k0: .max, k1: 1 << 63)  // both beyond Int64: stored by bit pattern
        #expect(try store.write { try $0.recordAlbumDigests(key: key, fingerprint: "photolibd test") } == 4)
        let digests = try #require(try store.write { try $0.takeAlbumDigests() })
        #expect(try store.write { try $0.takeAlbumDigests() } == nil, "taken once")
        #expect(digests.key == key && digests.fingerprint == "photolibd test")
        let listings: [AlbumTree.ID: [DirectoryPlan.Entry]] = [
            AlbumTree.rootID: [DirectoryPlan.Entry(name: FileName("Trip")!, kind: .directory), DirectoryPlan.Entry(name: FileName("Empty")!, kind: .directory)],
            trip: tripFiles.map(listed) + [DirectoryPlan.Entry(name: FileName("Day 1")!, kind: .directory)],
            day: dayFiles.map(listed),
            empty: [],
        ]
        for (album, entries) in listings {
            #expect(digests.unchanged(album, listing: .found(entries.reversed()), policy: .standard, daemonUID: Self.owner) != nil, "album \(album)")
        }
        // One fact off, and the album's listing is no longer its rows'.
        var touched = tripFiles
        touched[0].facts.modificationTime += 1
        #expect(digests.unchanged(trip, listing: .found(touched.map(listed) + [DirectoryPlan.Entry(name: FileName("Day 1")!, kind: .directory)]), policy: .standard, daemonUID: Self.owner) == nil)
    }
}
