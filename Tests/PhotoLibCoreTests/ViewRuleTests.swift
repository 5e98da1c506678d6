import PhotoLibCore
import Testing

@Suite("An album moved in the library, as each view takes it")
struct AlbumMoveEffectTests {
    @Test("a full view moves the directory; a limited one is untouched unless an album grant may now cover more or less")
    func effects() {
        #expect(AlbumMoveEffect.of(layout: .full, hasAlbumGrants: false) == .moveDirectory)
        #expect(AlbumMoveEffect.of(layout: .full, hasAlbumGrants: true) == .moveDirectory)
        #expect(AlbumMoveEffect.of(layout: .limited, hasAlbumGrants: false) == .nothing)
        #expect(AlbumMoveEffect.of(layout: .limited, hasAlbumGrants: true) == .reconcile)
        #expect(AlbumMoveEffect.of(layout: .empty, hasAlbumGrants: true) == .nothing)
    }
}

@Suite("A full view, album by album")
struct FullViewFilesTests {
    @Test("every file of the album has an entry under its own name, but one photolibd refuses to link")
    func files() {
        let facts = FileFacts(device: 1, inode: 2, size: 3, modificationTime: 4, permissions: 0o644)
        let files = [FileName("a.jpg")!: IndexedFile(rowID: 1, file: facts),
                     FileName("theirs.jpg")!: IndexedFile(rowID: 2, file: facts, refusal: .ownedByAnotherUser)]
        #expect(Set(ViewPolicy.fullViewFiles(inAlbum: files).keys) == [FileName("a.jpg")!])
    }
}
