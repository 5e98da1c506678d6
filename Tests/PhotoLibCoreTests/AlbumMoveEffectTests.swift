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
