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
        #expect(Set(ViewPolicy.fullViewFiles(inAlbum: files).map(\.key)) == [FileName("a.jpg")!])
    }
}

@Suite("What a selection edit adds to an app's view")
struct SelectionEditRuleTests {
    func asset(_ row: Int64, album: AlbumTree.ID = AlbumTree.rootID) -> LocatedAsset {
        let facts = FileFacts(device: 1, inode: UInt64(row), size: 3, modificationTime: 4, permissions: 0o644)
        let member = LocatedMember(rowID: row, path: RelativePath(escaped: "IMG_\(row).jpg")!, mediaType: .image, file: facts)
        return LocatedAsset(rowID: row, id: AssetID.fromBits(high: UInt64(row), low: 1), mediaType: .image, members: [member],
                            ancestry: [album, AlbumTree.rootID])
    }

    func app() -> AppRecord {
        var generator = SystemRandomNumberGenerator()
        return AppRecord(id: AppID("org.example.Viewer")!, uid: 1000, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                         viewName: FileName("v")!, assetIDs: AppAssetIDs.random(using: &generator))
    }

    @Test("newly granted: what the edit grants and was not granted before, each once, whether named or by album")
    func newlyGranted() {
        let (one, two, three) = (asset(1), asset(2, album: 5), asset(3))
        let before = ViewPolicy(layout: .limited, selectedAssets: [1], selectedAlbums: [])
        let after = ViewPolicy(layout: .limited, selectedAssets: [1, 3], selectedAlbums: [5])
        #expect(before.newlyGranted(by: after, among: [one, two, three, two]) == [two.id, three.id])
        #expect(after.newlyGranted(by: before, among: [one, two, three]).isEmpty, "a removal adds nothing")
    }

    @Test("the view's change: inserted for what joined, removed for what left, nothing for an asset outside before and after")
    func viewChange() {
        let record = app()
        let before = AppViewContext(app: record, selectedAssets: [1, 2], selectedAlbums: [])
        let after = AppViewContext(app: record, selectedAssets: [2, 3], selectedAlbums: [])
        let details = before.changes(to: after, touching: [asset(1), asset(2), asset(3), asset(4)])
        #expect(details.removed.count == 1 && details.inserted.count == 1 && details.changed.isEmpty)
        #expect(details.removed.first?.entry == before.viewAsset(asset(1))?.entry)
        #expect(details.inserted.first?.entry == after.viewAsset(asset(3))?.entry)
    }
}

@Suite("Links gathered across a batch")
struct PendingLinksTests {
    func source(_ row: Int64, _ album: String = "Album") -> LinkSource {
        LinkSource(album: RelativePath(escaped: album)!, name: FileName("IMG_\(row).jpg")!, inode: UInt64(100 + row), rowID: row,
                   stamp: ContentStamp(size: 10, modificationTime: row))
    }

    @Test("an entry waiting must be linked before a change touches it; others need not wait")
    func mustLinkFirst() {
        var pending = PendingLinks()
        pending.add(RelativePath(escaped: "Album/a.jpg")!, source(1))
        #expect(pending.mustLinkFirst(touching: [RelativePath(escaped: "Album/a.jpg")!]))
        #expect(!pending.mustLinkFirst(touching: [RelativePath(escaped: "Album/b.jpg")!, RelativePath(escaped: "Other/a.jpg")!]))
    }

    @Test("grouped by view directory in the order asked; the same entry twice keeps the later source; taking empties it")
    func groupsAndTakes() {
        var pending = PendingLinks()
        pending.add(RelativePath(escaped: "Album/a.jpg")!, source(1))
        pending.add(RelativePath(escaped: "Other/x.jpg")!, source(2, "Other"))
        pending.add(RelativePath(escaped: "Album/b.jpg")!, source(3))
        pending.add(RelativePath(escaped: "Album/a.jpg")!, source(4))
        let grouped = pending.byDirectory
        #expect(grouped[RelativePath(escaped: "Album")!]?.map(\.entry.escaped) == ["a.jpg", "b.jpg"])
        #expect(grouped[RelativePath(escaped: "Album")!]?.map(\.source.rowID) == [4, 3])
        #expect(grouped[RelativePath(escaped: "Other")!]?.count == 1)
        #expect(pending.take().count == 3)
        #expect(pending.isEmpty && !pending.mustLinkFirst(touching: [RelativePath(escaped: "Album/a.jpg")!]))
    }

    @Test("a derivative links from .derivatives under its member's row")
    func derivative() {
        let original = FileFacts(device: 1, inode: 5, size: 900, modificationTime: 1234, permissions: 0o644)
        let link = LinkSource(derivativeOf: 42, inode: 7, size: 800, original: original)
        #expect(link.isDerivative && link.name.escaped == "m42" && link.album.isRoot && link.rowID == 42)
        // A clone of it is the derivative's size, with the time the app is told: the original's.
        #expect(link.wanted(.clones) == .clone(source: 7, stamp: ContentStamp(size: 800, modificationTime: 1234)))
        #expect(link.wanted(.links) == .link(inode: 7))
    }
}
