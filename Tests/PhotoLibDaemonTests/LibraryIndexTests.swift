import PhotoLibCore
import PhotoLibStore
@testable import PhotoLibDaemon
import Testing

/// The index's executor, driven by the events the watcher would queue, on a
/// temporary directory and an in-memory store (no daemon).
@Suite("LibraryIndex on a temporary library")
struct LibraryIndexTests {
    func path(_ text: String) -> RelativePath { TemporaryLibrary.path(text) }

    @Test("a full scan indexes photos and videos in albums, and leaves hidden folders and unfinished downloads out")
    func fullScan() throws {
        let library = try TemporaryLibrary()
        try library.write("a.jpg")
        try library.write("Trips/2024/b.heic")
        try library.write("Trips/clip.mp4")
        try library.write(".Trash-1000/files/old.jpg")
        try library.write("Downloads/c.jpg.part")
        try library.write("notes.txt")
        try library.scan()
        #expect(Set(try library.assets().keys) == ["a.jpg", "Trips/2024/b.heic", "Trips/clip.mp4"])
    }

    @Test("a rename within the library keeps the asset's ID; the change names the old and the new place")
    func renameKeepsIdentity() throws {
        let library = try TemporaryLibrary()
        try library.write("Trips/a.jpg")
        try library.write("Other/.keep.jpg")
        try library.scan()
        let id = try #require(try library.assets()["Trips/a.jpg"])
        try library.move("Trips/a.jpg", "Other/b.jpg")
        let (changes, _) = try library.apply([.moved(from: path("Trips/a.jpg"), to: path("Other/b.jpg"), isDirectory: false)])
        #expect(try library.assets()["Other/b.jpg"] == id)
        #expect(try library.assets()["Trips/a.jpg"] == nil)
        let moves = changes.compactMap { change -> (RelativePath?, RelativePath?)? in
            guard case .asset(let old, let new) = change else { return nil }
            return (old?.members.first?.path, new?.members.first?.path)
        }
        #expect(moves.contains { $0.0 == path("Trips/a.jpg") && $0.1 == path("Other/b.jpg") })
    }

    @Test("an atomic save (a temporary file renamed over the photo) keeps its ID and records a content change")
    func atomicSave() throws {
        let library = try TemporaryLibrary()
        try library.write("a.jpg", "before")
        try library.scan()
        let id = try #require(try library.assets()["a.jpg"])
        let before = try #require(try library.store.read { try $0.member(album: AlbumTree.rootID, name: FileName("a.jpg")!) })
        try library.write(".a.jpg.tmp", "after, longer")
        try library.move(".a.jpg.tmp", "a.jpg")
        let (changes, _) = try library.apply([.fileWritten(path(".a.jpg.tmp")),
                                              .moved(from: path(".a.jpg.tmp"), to: path("a.jpg"), isDirectory: false)])
        #expect(try library.assets() == ["a.jpg": id])
        let after = try #require(try library.store.read { try $0.member(album: AlbumTree.rootID, name: FileName("a.jpg")!) })
        #expect(after.file.inode != before.file.inode)
        #expect(after.file.size == Int64("after, longer".utf8.count))
        #expect(changes.contains { if case .asset(let old?, let new?) = $0 { old.id == id && new.id == id } else { false } })
    }

    @Test("a file deleted before its event is looked at is removed, not kept: the look decides, not the event")
    func deletedBeforeLook() throws {
        let library = try TemporaryLibrary()
        try library.write("a.jpg")
        try library.scan()
        try library.write("b.jpg")
        try library.remove("a.jpg")
        try library.remove("b.jpg")
        try library.apply([.fileWritten(path("b.jpg")), .fileWritten(path("a.jpg"))])
        #expect(try library.assets().isEmpty)
    }

    @Test("an album renamed keeps every asset's ID inside it, sub-albums included")
    func albumMove() throws {
        let library = try TemporaryLibrary()
        try library.write("Trips/a.jpg")
        try library.write("Trips/2024/b.jpg")
        try library.scan()
        let before = try library.assets()
        try library.move("Trips", "Journeys")
        let (changes, _) = try library.apply([.moved(from: path("Trips"), to: path("Journeys"), isDirectory: true)])
        let after = try library.assets()
        #expect(after["Journeys/a.jpg"] == before["Trips/a.jpg"])
        #expect(after["Journeys/2024/b.jpg"] == before["Trips/2024/b.jpg"])
        #expect(changes.contains(.albumMoved(from: path("Trips"), to: path("Journeys"))))
    }

    @Test("a file moved while nobody watched keeps its ID at the next full scan (same inode, same birth)")
    func unwatchedMove() throws {
        let library = try TemporaryLibrary()
        try library.write("Trips/a.jpg")
        try library.write("Other/x.jpg")
        try library.scan()
        let id = try #require(try library.assets()["Trips/a.jpg"])
        try library.move("Trips/a.jpg", "Other/a.jpg")
        try library.scan()
        #expect(try library.assets()["Other/a.jpg"] == id)
    }

    @Test("a file written under a new name is a new asset; its photo and video with one stem pair into a Live Photo")
    func livePair() throws {
        let library = try TemporaryLibrary()
        try library.scan()
        try library.write("IMG_0001.HEIC")
        try library.write("IMG_0001.MOV")
        try library.apply([.fileWritten(path("IMG_0001.HEIC")), .fileWritten(path("IMG_0001.MOV"))])
        let records = try library.store.read { try $0.assets(albums: nil, mediaType: nil, nameContains: nil) }
        #expect(records.count == 1)
        #expect(records.first?.mediaType == .live)
        #expect(records.first?.members.count == 2)
    }

    @Test("a directory moved in from outside is scanned with everything below it")
    func directoryMovedIn() throws {
        let library = try TemporaryLibrary()
        try library.scan()
        try library.write("Imported/one.jpg")
        try library.write("Imported/deep/two.jpg")
        let (_, outcome) = try library.apply([.movedIn(path("Imported"), isDirectory: true)])
        #expect(!outcome.needsFullScan)
        #expect(Set(try library.assets().keys) == ["Imported/one.jpg", "Imported/deep/two.jpg"])
    }

    @Test("a batch's new files are stored together, yet a later event of the batch finds them: written twice, moved, in two albums")
    func arrivalsInOneBatch() throws {
        let library = try TemporaryLibrary()
        try library.scan()
        try library.write("A/1.jpg")
        try library.write("B/3.jpg")
        try library.write("B/2.jpg")  // written as A/2.jpg, then moved: the disk as the batch finds it
        let burst = (0..<600).map { "Burst/IMG_\($0).jpg" }
        for name in burst { try library.write(name) }
        let (changes, _) = try library.apply(
            [.fileWritten(path("A/1.jpg")), .fileWritten(path("A/2.jpg")), .fileCreated(path("B/3.jpg")), .fileWritten(path("B/3.jpg")),
             .fileWritten(path("A/1.jpg")), .moved(from: path("A/2.jpg"), to: path("B/2.jpg"), isDirectory: false)]
                + burst.map { .fileWritten(path($0)) })
        let stored = try library.assets()
        #expect(Set(stored.keys) == Set(["A/1.jpg", "B/2.jpg", "B/3.jpg"] + burst))
        let inserted = changes.compactMap { change -> (String, AssetID)? in
            guard case .asset(nil, let new?) = change, let member = new.members.first else { return nil }
            return (member.path.escaped, new.id)
        }
        #expect(inserted.count == stored.count, "each new file recorded once: \(inserted.count) of \(stored.count)")
        #expect(Dictionary(inserted, uniquingKeysWith: { first, _ in first }) == stored, "recorded under the ID stored")
        #expect(!changes.contains { if case .asset(_?, _) = $0 { true } else { false } }, "a file written twice is not changed")
    }

    @Test("Live Photos arriving in one batch, stored together, are paired at its end: each photo and its video one asset")
    func livePairsInABurst() throws {
        let library = try TemporaryLibrary()
        try library.write("Trip/lone.jpg")
        try library.scan()
        var events: [WatchEvent] = []
        for index in 0..<20 {
            for name in ["Trip/IMG_\(index).HEIC", "Trip/IMG_\(index).MOV"] {
                try library.write(name)
                events.append(.fileWritten(path(name)))
            }
        }
        try library.apply(events)
        let records = try library.store.read { try $0.assets(albums: nil, mediaType: nil, nameContains: nil) }
        #expect(records.count == 21)
        #expect(records.filter { $0.mediaType == .live && $0.members.count == 2 }.count == 20, "every photo joined by its video")
    }

    @Test("what a person names is found in the index: a photo by its ID or its path, an album by its path; what names nothing is an error saying which")
    func resolvingNames() throws {
        let library = try TemporaryLibrary()
        try library.write("Trips/2025/a.jpg")
        try library.write("b.jpg")
        try library.scan()
        let assets = try library.store.read { try $0.assets(albums: nil, mediaType: nil, nameContains: nil) }
        let a = try #require(assets.first { $0.members.first?.name.description == "a.jpg" })
        func named(_ assets: [String], _ albums: [String] = []) throws -> SelectionEdit {
            try library.index.resolve(try NamedItems(assets: assets, albums: albums, library: library.root))
        }
        let edit = try named([a.id.rawValue, "b.jpg", library.root + "/Trips/2025/a.jpg"], ["Trips"])
        #expect(edit.assets.map(\.rowID) == [a.rowID, try #require(assets.first { $0.rowID != a.rowID }).rowID, a.rowID])
        #expect(edit.albums == [try #require(library.index.albums.album(at: RelativePath(escaped: "Trips")!))])
        #expect(throws: PhotoLibError.unknownAsset("0123456789abcdef")) { try named(["0123456789abcdef"]) }
        #expect(throws: PhotoLibError.notAnAsset(path: "Trips/c.jpg")) { try named(["Trips/c.jpg"]) }
        #expect(throws: PhotoLibError.unknownAlbum(path: "Nowhere")) { try named([], ["Nowhere"]) }
    }

    @Test("the look ahead asks only for what an app without location may be granted: files and directories in its album, not elsewhere; none for an app that sees locations")
    func lookAheadPlan() throws {
        let library = try TemporaryLibrary()
        try library.write("Trips/a.jpg")
        try library.write("Trips/b.jpg")
        try library.write("Other/c.jpg")
        try library.scan()
        let trips = try #require(library.index.albums.album(at: path("Trips")))
        var generator = SystemRandomNumberGenerator()
        func app(_ location: LocationPolicy) -> AppRecord {
            AppRecord(id: AppID("org.example.Viewer")!, uid: 1000, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                      viewName: FileName("view-viewer")!, location: location, assetIDs: AppAssetIDs.random(using: &generator))
        }
        let batch: [WatchEvent] = [.fileWritten(path("Trips/new.jpg")), .fileWritten(path("Other/d.jpg")),
                                   .directoryCreated(path("Trips/Sub")), .directoryCreated(path("Other/Sub")),
                                   .directoryChanged(path("Trips"))]
        let hidden = AppViewContext(app: app(.none), selectedAssets: [], selectedAlbums: [trips])
        let job = try #require(library.index.lookAheadJob(batch, for: [hidden]))
        #expect(job.files == [path("Trips/new.jpg")])
        #expect(job.directories.map(\.path) == [path("Trips/Sub"), path("Trips")])
        #expect(job.directories.map(\.recursive) == [true, false])
        #expect(job.directories.last?.skipping == [FileName("a.jpg")!, FileName("b.jpg")!], "a directory listed again skips what the index holds")
        #expect(library.index.lookAheadJob(batch, for: [AppViewContext(app: app(.precise), selectedAssets: [], selectedAlbums: [trips])]) == nil)
        #expect(library.index.lookAheadJob([.fileWritten(path("Other/d.jpg"))], for: [hidden]) == nil)
    }

    @Test("what an edit grants, located: the assets it names, and every asset in its albums and the albums below them")
    func locatedEdit() throws {
        let library = try TemporaryLibrary()
        try library.write("Trips/a.jpg")
        try library.write("Trips/2024/b.jpg")
        try library.write("Other/c.jpg")
        try library.write("Other/d.jpg")
        try library.scan()
        let edit = try library.index.resolve(try NamedItems(assets: ["Other/c.jpg"], albums: ["Trips"], library: library.root))
        let located = try library.index.located(edit)
        #expect(Set(located.compactMap { $0.primary?.path }) == [path("Other/c.jpg"), path("Trips/a.jpg"), path("Trips/2024/b.jpg")])
    }
}
