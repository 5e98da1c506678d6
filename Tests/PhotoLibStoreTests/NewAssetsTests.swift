import PhotoLibCore
import PhotoLibStore
import Testing

/// A scan's new files inserted many to a statement come back in order, each an asset of its own,
/// stored exactly as one insert at a time stores them; an ID drawn twice is drawn again.
@Suite("New assets, many to a statement")
struct NewAssetsTests {
    func file(_ index: Int, refusal: LinkRefusal? = nil) -> DirectoryPlan.NewFile {
        DirectoryPlan.NewFile(name: FileName(bytes: Array("IMG_\(index).jpg".utf8) + (index % 7 == 0 ? [0xFF] : []))!,
                              mediaType: index % 5 == 0 ? .video : .image,
                              facts: FileFacts(device: 9, inode: UInt64(1_000 + index), birthTime: index % 3 == 0 ? nil : Int64(index),
                                               size: Int64(index), modificationTime: Int64(10 * index), permissions: 0o644),
                              refusal: refusal)
    }

    /// Draws the same 80 bits for the first `repeats` IDs, then distinct ones.
    struct Repeating: RandomNumberGenerator {
        var repeats: Int
        var calls = 0
        mutating func next() -> UInt64 {
            calls += 1
            return calls <= 2 * repeats ? 42 : UInt64(calls) &* 0x9E37_79B9_7F4A_7C15
        }
    }

    @Test("300 files (statements of 256, 32, 8 and 4) come back in order and read back as stored")
    func inOrder() throws {
        let store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        let files = (0..<300).map { file($0, refusal: $0 == 13 ? .ownedByAnotherUser : nil) }
        let album = try store.write { tx in try tx.insertAlbum(parent: AlbumTree.rootID, name: FileName("Trip")!) }
        let assets = try store.write { tx in try tx.insertNewAssets(album: album, files: files, generator: &generator) }
        let members = assets.map(\.primary)
        #expect(assets.allSatisfy { $0.members.count == 1 && $0.rowID == $0.primary.asset })
        #expect(members.map(\.name) == files.map(\.name))
        #expect(Set(members.map(\.asset)).count == 300, "each file is an asset of its own")
        #expect(Set(members.map(\.rowID)).count == 300)
        try store.read { tx in
            for (member, file) in zip(members, files) {
                let stored = try #require(try tx.member(rowID: member.rowID))
                #expect(stored.name == file.name && stored.album == album && stored.asset == member.asset)
                #expect(stored.file == file.facts && stored.mediaType == file.mediaType && stored.refusal == file.refusal)
                #expect(try tx.asset(rowID: member.asset)?.mediaType == file.mediaType)
            }
            for asset in assets {
                #expect(try tx.asset(rowID: asset.rowID)?.id == asset.id, "the ID returned is the one stored")
            }
            #expect(try tx.indexedFiles(inAlbum: album).count == 300)
        }
        // Found by name as one insert at a time finds them (the folded name is set).
        #expect(try store.read { tx in try tx.member(album: album, name: files[7].name)?.rowID } == members[7].rowID)
    }

    @Test("an asset ID drawn twice in one statement fails it, and the batch is drawn again")
    func collision() throws {
        let store = try Store(inMemory: ())
        var generator = Repeating(repeats: 2)
        let assets = try store.write { tx in try tx.insertNewAssets(album: AlbumTree.rootID, files: [file(1), file(2)], generator: &generator) }
        #expect(assets.count == 2 && assets[0].rowID != assets[1].rowID)
        let ids = try store.read { tx in try assets.map { try #require(try tx.asset(rowID: $0.rowID)).id } }
        #expect(Set(ids).count == 2 && ids == assets.map(\.id), "the IDs returned are those stored after the redraw")
        #expect(generator.calls > 4, "drawn again after the collision")
    }

    @Test("a name already in the album is an error, and the write stores none of the batch")
    func existingName() throws {
        let store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        _ = try store.write { tx in try tx.insertNewAssets(album: AlbumTree.rootID, files: [file(2)], generator: &generator) }
        #expect(throws: (any Error).self) {
            try store.write { tx in _ = try tx.insertNewAssets(album: AlbumTree.rootID, files: [file(1), file(2)], generator: &generator) }
        }
        #expect(try store.read { tx in try tx.indexedFiles(inAlbum: AlbumTree.rootID).count } == 1)
    }
}
