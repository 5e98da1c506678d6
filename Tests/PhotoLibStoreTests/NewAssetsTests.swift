import PhotoLibCore
import PhotoLibStore
import Testing

/// A scan's new files inserted many to a statement come back in order, each an asset of its own,
/// stored exactly as one insert at a time stores them; each ID its row's under the library's key.
@Suite("New assets, many to a statement")
struct NewAssetsTests {
    func file(_ index: Int, refusal: LinkRefusal? = nil) -> DirectoryPlan.NewFile {
        DirectoryPlan.NewFile(name: FileName(bytes: Array("IMG_\(index).jpg".utf8) + (index % 7 == 0 ? [0xFF] : []))!,
                              mediaType: index % 5 == 0 ? .video : .image,
                              facts: FileFacts(device: 9, inode: UInt64(1_000 + index), birthTime: index % 3 == 0 ? nil : Int64(index),
                                               size: Int64(index), modificationTime: Int64(10 * index), permissions: 0o644),
                              refusal: refusal)
    }

    @Test("300 files (statements of 256, 32, 8 and 4) come back in order and read back as stored")
    func inOrder() throws {
        let store = try Store(inMemory: ())
        let files = (0..<300).map { file($0, refusal: $0 == 13 ? .ownedByAnotherUser : nil) }
        let album = try store.write { tx in try tx.insertAlbum(parent: AlbumTree.rootID, name: FileName("Trip")!) }
        let assets = try store.write { tx in try tx.insertNewAssets(album: album, files: files) }
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

    @Test("a new asset's ID is its row's under the library's key: found by it, never stored, never another's; a deleted row's ID names nothing after")
    func permutedIDs() throws {
        let store = try Store(inMemory: ())
        let assets = try store.write { tx in try tx.insertNewAssets(album: AlbumTree.rootID, files: (1...5).map { file($0) }) }
        #expect(Set(assets.map(\.id)).count == 5)
        let found = try store.read { tx in try assets.map { try tx.asset(id: $0.id)?.rowID } }
        #expect(found == assets.map(\.rowID))
        try store.write { tx in try tx.deleteMember(rowID: assets[4].primary.rowID) }
        let next = try store.write { tx in try tx.insertNewAssets(album: AlbumTree.rootID, files: [file(6)]) }
        #expect(next[0].rowID > assets[4].rowID && next[0].id != assets[4].id, "a row number, and so an ID, is never used twice")
        #expect(try store.read { tx in try tx.asset(id: assets[4].id) } == nil, "the deleted asset's ID names nothing")
        var generator = SystemRandomNumberGenerator()
        #expect(try store.read { tx in try (0..<1_000).allSatisfy { _ in try tx.asset(id: AssetID.random(using: &generator)) == nil } },
                "a guessed ID names nothing")
    }

    @Test("a name already in the album is an error, and the write stores none of the batch")
    func existingName() throws {
        let store = try Store(inMemory: ())
        _ = try store.write { tx in try tx.insertNewAssets(album: AlbumTree.rootID, files: [file(2)]) }
        #expect(throws: (any Error).self) {
            try store.write { tx in _ = try tx.insertNewAssets(album: AlbumTree.rootID, files: [file(1), file(2)]) }
        }
        #expect(try store.read { tx in try tx.indexedFiles(inAlbum: AlbumTree.rootID).count } == 1)
    }
}
