import PhotoLibCore
import Testing

/// A batch's edits decided whole on values: these events, these rows, this probe → these rows
/// and these changes. No store and no disk: the rows are `IndexTable`, the probe a value.
@Suite("Index batches")
struct IndexBatchTests {
    static let owner: UInt32 = 1000

    static func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }

    static func facts(_ inode: UInt64, size: Int64 = 100, born: Int64? = nil) -> FileFacts {
        FileFacts(device: 1, inode: inode, birthTime: born, size: size, modificationTime: 1_000, permissions: 0o644)
    }

    static func file(_ facts: FileFacts) -> Lookup<FileObservation> {
        .found(FileObservation(kind: .regular, facts: facts, owner: owner, linkCount: 1))
    }

    static let directory = Lookup<FileObservation>.found(FileObservation(kind: .directory, facts: facts(1), owner: owner, linkCount: 2))

    static func entry(_ name: String, _ facts: FileFacts) -> DirectoryPlan.Entry {
        DirectoryPlan.Entry(name: FileName(name)!, kind: .file(file(facts)))
    }

    static func album(_ name: String) -> DirectoryPlan.Entry { DirectoryPlan.Entry(name: FileName(name)!, kind: .directory) }

    /// Runs `events` (or a full scan, when nil) over `table` with `probe`; the batch as it ends.
    static func run(_ events: [WatchEvent]?, on table: inout IndexTable, probe: LibraryProbe,
                    unreadable: [RelativePath: FileSystemFailure] = [:], trustsInodes: Bool = true) throws -> (IndexBatch<IndexTable>, [ViewChange]) {
        let recorder = ChangeRecorder(recording: true)
        var batch = IndexBatch(rows: table, albums: table.tree, unreadable: unreadable, probe: probe, policy: .standard,
                               daemonUID: owner, recorder: recorder, trustsInodes: trustsInodes)
        if let events { try batch.apply(events) } else { try batch.fullScan() }
        table = batch.rows
        return (batch, recorder.changes)
    }

    static func assetID(at path: String, in table: IndexTable, tree: AlbumTree) -> AssetID? {
        let path = Self.path(path)
        guard let album = tree.album(at: path.parent ?? .root), let member = table.member(album: album, name: path.lastComponent!) else { return nil }
        return table.asset(rowID: member.asset)?.id
    }

    @Test("New, changed, renamed and removed files in one batch: new rows, IDs kept, the removed asset gone, each change recorded")
    func liveBatch() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        table.addFile("a.jpg", in: trips, facts: Self.facts(1))
        let b = table.addFile("b.jpg", in: trips, facts: Self.facts(2))
        let c = table.addFile("c.jpg", in: trips, facts: Self.facts(3))
        let idA = try #require(Self.assetID(at: "Trips/a.jpg", in: table, tree: table.tree))
        let idB = try #require(table.asset(rowID: b)?.id)
        let probe = LibraryProbe(lookups: [
            Self.path("Trips/new.jpg"): Self.file(Self.facts(10)),
            Self.path("Trips/a.jpg"): Self.file(Self.facts(1, size: 555)),
            Self.path("Trips/b2.jpg"): Self.file(Self.facts(2)),
        ])
        let (batch, changes) = try Self.run([
            .fileWritten(Self.path("Trips/new.jpg")),
            .fileWritten(Self.path("Trips/a.jpg")),
            .moved(from: Self.path("Trips/b.jpg"), to: Self.path("Trips/b2.jpg"), isDirectory: false),
            .removed(Self.path("Trips/c.jpg"), isDirectory: false),
        ], on: &table, probe: probe)

        let tree = batch.albums
        #expect(Self.assetID(at: "Trips/new.jpg", in: table, tree: tree) != nil, "the new file is an asset")
        #expect(Self.assetID(at: "Trips/a.jpg", in: table, tree: tree) == idA, "an edit keeps the ID")
        #expect(table.member(album: trips, name: FileName("a.jpg")!)?.file.size == 555)
        #expect(Self.assetID(at: "Trips/b2.jpg", in: table, tree: tree) == idB, "a rename keeps the ID")
        #expect(Self.assetID(at: "Trips/b.jpg", in: table, tree: tree) == nil)
        #expect(table.asset(rowID: c) == nil, "the removed file's asset went with it")
        #expect(batch.outcome == IndexBatch<IndexTable>.Outcome(), "nothing more asked of the daemon")

        let moves = changes.compactMap { change -> (String?, String?)? in
            guard case .asset(let old, let new) = change else { return nil }
            return (old?.primary?.path.description, new?.primary?.path.description)
        }
        #expect(moves.count == 4, "\(moves)")
        #expect(moves.contains { $0 == ("Trips/a.jpg", "Trips/a.jpg") })
        #expect(moves.contains { $0 == ("Trips/b.jpg", "Trips/b2.jpg") })
        #expect(moves.contains { $0 == ("Trips/c.jpg", nil) })
        #expect(moves.contains { $0 == (nil, "Trips/new.jpg") })
    }

    @Test("A file renamed over a photo (an atomic save) keeps the photo's ID and takes the new content")
    func atomicSave() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let asset = table.addFile("a.jpg", in: trips, facts: Self.facts(1))
        let id = try #require(table.asset(rowID: asset)?.id)
        let probe = LibraryProbe(lookups: [Self.path("Trips/a.jpg"): Self.file(Self.facts(20, size: 999))])
        let (batch, changes) = try Self.run([
            .moved(from: Self.path("Trips/a.jpg.tmp"), to: Self.path("Trips/a.jpg"), isDirectory: false),
        ], on: &table, probe: probe)
        #expect(Self.assetID(at: "Trips/a.jpg", in: table, tree: batch.albums) == id)
        #expect(table.member(album: trips, name: FileName("a.jpg")!)?.file.inode == 20)
        #expect(table.members.count == 1)
        #expect(changes.count == 1)
    }

    @Test("An album renamed is one row renamed: no file looked at, every ID kept, one change")
    func albumRenamed() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let rome = table.addAlbum("Rome", in: trips)
        let asset = table.addFile("a.jpg", in: rome, facts: Self.facts(1))
        let id = try #require(table.asset(rowID: asset)?.id)
        let (batch, changes) = try Self.run([
            .moved(from: Self.path("Trips"), to: Self.path("Journeys"), isDirectory: true),
        ], on: &table, probe: LibraryProbe())
        #expect(batch.albums.path(of: rome) == Self.path("Journeys/Rome"))
        #expect(Self.assetID(at: "Journeys/Rome/a.jpg", in: table, tree: batch.albums) == id)
        #expect(changes == [.albumMoved(from: Self.path("Trips"), to: Self.path("Journeys"))])
        #expect(batch.outcome.albumsRearranged, "descriptors kept for the old place are stale")
        #expect(!batch.outcome.needsFullScan)
    }

    @Test("A directory moved in is indexed from the probe's listing, its Live Photo made one asset")
    func directoryMovedIn() throws {
        var table = IndexTable()
        let probe = LibraryProbe(
            lookups: [Self.path("Phone"): Self.directory],
            listings: [Self.path("Phone"): .found([Self.entry("IMG_1.HEIC", Self.facts(31)), Self.entry("IMG_1.MOV", Self.facts(32)),
                                                   Self.entry("IMG_2.JPG", Self.facts(33)), Self.album("Burst")]),
                       Self.path("Phone/Burst"): .found([Self.entry("b1.jpg", Self.facts(34))])])
        let (batch, changes) = try Self.run([.movedIn(Self.path("Phone"), isDirectory: true)], on: &table, probe: probe)
        let phone = try #require(batch.albums.album(at: Self.path("Phone")))
        #expect(batch.albums.album(at: Self.path("Phone/Burst")) != nil)
        #expect(table.members.count == 4)
        let live = try #require(table.member(album: phone, name: FileName("IMG_1.HEIC")!))
        #expect(table.asset(rowID: live.asset)?.mediaType == .live)
        #expect(table.asset(rowID: live.asset)?.members.count == 2)
        #expect(table.assetRows.count == 3, "the pair is one asset")
        #expect(changes.contains(.albumCreated(Self.path("Phone"))) && changes.contains(.albumCreated(Self.path("Phone/Burst"))))
    }

    @Test("A photo the probe could not read keeps its row and is said unreadable; nothing is taken for gone")
    func unreadableKept() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        table.addFile("a.jpg", in: trips, facts: Self.facts(1))
        let denied = FileSystemFailure(call: "statx", errno: 13)
        let probe = LibraryProbe(lookups: [Self.path("Trips/a.jpg"): .unreadable(denied)])
        let (batch, changes) = try Self.run([.attributesChanged(Self.path("Trips/a.jpg"))], on: &table, probe: probe)
        #expect(table.members.count == 1)
        #expect(batch.unreadable == [Self.path("Trips/a.jpg"): denied])
        #expect(changes.isEmpty)
    }

    @Test("A path the probe did not look at is never looked at here: its event changes nothing, and a full scan is asked for")
    func unprobedPath() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        table.addFile("a.jpg", in: trips, facts: Self.facts(1))
        let probe = LibraryProbe(lookups: [Self.path("Trips/b.jpg"): Self.file(Self.facts(2))])
        let (batch, changes) = try Self.run([
            .moved(from: Self.path("Trips/a.jpg"), to: Self.path("Elsewhere/a.jpg"), isDirectory: false),
            .fileWritten(Self.path("Trips/b.jpg")),
        ], on: &table, probe: probe)
        #expect(batch.outcome.unprobed == [Self.path("Elsewhere")])
        #expect(batch.outcome.needsFullScan)
        #expect(table.member(album: trips, name: FileName("a.jpg")!) != nil, "the row stays where it was, not taken for gone")
        #expect(table.member(album: trips, name: FileName("b.jpg")!) != nil, "the next event is carried out")
        #expect(changes.count == 1)
    }

    @Test("A full scan: a photo moved while nobody watched keeps its ID; a reused inode with another birth time is another photo")
    func fullScanIdentity() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let home = table.addAlbum("Home")
        let moved = table.addFile("a.jpg", in: trips, facts: Self.facts(5, born: 100))
        let replaced = table.addFile("b.jpg", in: home, facts: Self.facts(6, born: 200))
        let movedID = try #require(table.asset(rowID: moved)?.id)
        let replacedID = try #require(table.asset(rowID: replaced)?.id)
        let walked = LibraryProbe(listings: [
            .root: .found([Self.album("Trips"), Self.album("Home")]),
            Self.path("Trips"): .found([]),
            Self.path("Home"): .found([Self.entry("moved.jpg", Self.facts(5, born: 100)), Self.entry("other.jpg", Self.facts(6, born: 999))]),
        ])
        let (batch, _) = try Self.run(nil, on: &table, probe: walked)
        #expect(Self.assetID(at: "Home/moved.jpg", in: table, tree: batch.albums) == movedID)
        let other = try #require(Self.assetID(at: "Home/other.jpg", in: table, tree: batch.albums))
        #expect(other != replacedID, "another file under a reused inode number")
        #expect(table.asset(rowID: replaced) == nil)
        #expect(table.members.count == 2)
        #expect(batch.changedAlbums == [trips, home], "the albums whose view directories a start must read")
        let (again, _) = try Self.run(nil, on: &table, probe: walked)
        #expect(again.changedAlbums.isEmpty, "the same walk again changes nothing")
    }

    @Test("A full scan: two links of one file moved while nobody watched keep both their IDs, one each; a file gone with no arrival of its inode goes")
    func fullScanLinkedPair() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        _ = table.addAlbum("Home")
        let first = table.addFile("a.jpg", in: trips, facts: Self.facts(5, born: 100))
        let second = table.addFile("b.jpg", in: trips, facts: Self.facts(5, born: 100))
        let lost = table.addFile("c.jpg", in: trips, facts: Self.facts(7, born: 100))
        let ids = try [first, second].map { try #require(table.asset(rowID: $0)?.id) }
        let walked = LibraryProbe(listings: [
            .root: .found([Self.album("Trips"), Self.album("Home")]),
            Self.path("Trips"): .found([]),
            Self.path("Home"): .found([Self.entry("x.jpg", Self.facts(5, born: 100)), Self.entry("y.jpg", Self.facts(5, born: 100)),
                                       Self.entry("new.jpg", Self.facts(8, born: 100))]),
        ])
        let (batch, _) = try Self.run(nil, on: &table, probe: walked)
        let found = Set(["Home/x.jpg", "Home/y.jpg"].compactMap { Self.assetID(at: $0, in: table, tree: batch.albums) })
        #expect(found == Set(ids), "each link keeps one of the two IDs")
        #expect(table.asset(rowID: lost) == nil)
        #expect(table.members.count == 3)
    }

    @Test("A full scan drops an album that is gone, and pairs what a schema upgrade left to pair")
    func fullScanAlbumsAndPairs() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        _ = table.addAlbum("Old")
        table.addFile("IMG_1.HEIC", in: trips, facts: Self.facts(1))
        table.addFile("IMG_1.MOV", in: trips, facts: Self.facts(2))
        table.dueForPairing = [trips]
        let walked = LibraryProbe(listings: [
            .root: .found([Self.album("Trips")]),
            Self.path("Trips"): .found([Self.entry("IMG_1.HEIC", Self.facts(1)), Self.entry("IMG_1.MOV", Self.facts(2))]),
        ])
        let (batch, changes) = try Self.run(nil, on: &table, probe: walked)
        #expect(batch.albums.album(at: Self.path("Old")) == nil)
        #expect(changes.contains(.albumRemoved(Self.path("Old"))))
        #expect(table.assetRows.count == 1, "the upgrade's pair is one asset now")
    }

    @Test("Capture times come from the probe: a new photo's is kept, a changed one the probe did not read is left to be looked at")
    func captureTimes() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        table.addFile("old.jpg", in: trips, facts: Self.facts(1))
        table.setCaptureTime(42, memberRowID: try #require(table.member(album: trips, name: FileName("old.jpg")!)).rowID)
        let probe = LibraryProbe(lookups: [Self.path("Trips/new.jpg"): Self.file(Self.facts(2)),
                                           Self.path("Trips/old.jpg"): Self.file(Self.facts(1, size: 7))],
                                 takenAt: [Self.path("Trips/new.jpg"): 1_700_000_000])
        _ = try Self.run([.fileWritten(Self.path("Trips/new.jpg")), .fileWritten(Self.path("Trips/old.jpg"))], on: &table, probe: probe)
        #expect(table.member(album: trips, name: FileName("new.jpg")!)?.takenAt == 1_700_000_000)
        #expect(table.member(album: trips, name: FileName("old.jpg")!)?.takenAt == nil, "its content changed: the old time no longer holds")
    }

    // MARK: Directories listed again by a round

    static func facts(_ inode: UInt64, size: Int64, time: Int64) -> FileFacts {
        FileFacts(device: 1, inode: inode, size: size, modificationTime: time, permissions: 0o644)
    }

    @Test("A directory listed again where inodes are made up: a photo renamed on the server keeps its ID by size and time, a new one arrives, a gone one goes, and the known sub-album is left to its own round")
    func relistedWithMadeUpInodes() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let rome = table.addAlbum("Rome", in: trips)
        let renamed = table.addFile("a.jpg", in: trips, facts: Self.facts(1, size: 100, time: 1_000))
        let gone = table.addFile("c.jpg", in: trips, facts: Self.facts(3, size: 300, time: 3_000))
        table.addFile("r.jpg", in: rome, facts: Self.facts(4, size: 400, time: 4_000))
        let renamedID = try #require(table.asset(rowID: renamed)?.id)
        let probe = LibraryProbe(
            lookups: [Self.path("Trips/a.jpg"): .gone, Self.path("Trips/c.jpg"): .gone],
            listings: [Self.path("Trips"): .found([Self.entry("renamed.jpg", Self.facts(77, size: 100, time: 1_000)),
                                                   Self.entry("new.jpg", Self.facts(78, size: 500, time: 5_000)), Self.album("Rome")])])
        let failure = FileSystemFailure(call: "openat", errno: 5)
        let (batch, changes) = try Self.run([.directoryChanged(Self.path("Trips"))], on: &table, probe: probe,
                                            unreadable: [Self.path("Trips"): failure, Self.path("Trips/Rome/x.jpg"): failure], trustsInodes: false)
        #expect(batch.unreadable == [Self.path("Trips/Rome/x.jpg"): failure], "read again, it is no longer said unreadable; its sub-album's files wait for their own round")
        #expect(Self.assetID(at: "Trips/renamed.jpg", in: table, tree: batch.albums) == renamedID, "renamed on the server: the same photo")
        #expect(Self.assetID(at: "Trips/new.jpg", in: table, tree: batch.albums) != nil)
        #expect(table.asset(rowID: gone) == nil)
        #expect(Self.assetID(at: "Trips/Rome/r.jpg", in: table, tree: batch.albums) != nil, "a sub-album without a listing is not taken for gone")
        #expect(table.members.count == 3)
        #expect(!table.members.values.contains { $0.name.isHidden }, "nothing is left parked")
        let moves = changes.compactMap { change -> (String?, String?)? in
            guard case .asset(let old, let new) = change else { return nil }
            return (old?.primary?.path.description, new?.primary?.path.description)
        }
        #expect(moves.contains { $0 == ("Trips/a.jpg", "Trips/renamed.jpg") }, "\(moves)")
        #expect(moves.contains { $0 == ("Trips/c.jpg", nil) })
    }

    @Test("Where inodes are made up, files that look alike are told apart by nothing: each gets a new ID, none takes another's")
    func madeUpInodesAlike() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let first = table.addFile("a.jpg", in: trips, facts: Self.facts(1, size: 100, time: 1_000))
        let second = table.addFile("b.jpg", in: trips, facts: Self.facts(2, size: 100, time: 1_000))
        let ids = [try #require(table.asset(rowID: first)?.id), try #require(table.asset(rowID: second)?.id)]
        let probe = LibraryProbe(
            lookups: [Self.path("Trips/a.jpg"): .gone, Self.path("Trips/b.jpg"): .gone],
            listings: [Self.path("Trips"): .found([Self.entry("x.jpg", Self.facts(7, size: 100, time: 1_000)),
                                                   Self.entry("y.jpg", Self.facts(8, size: 100, time: 1_000))])])
        let (batch, _) = try Self.run([.directoryChanged(Self.path("Trips"))], on: &table, probe: probe, trustsInodes: false)
        for name in ["Trips/x.jpg", "Trips/y.jpg"] {
            let id = try #require(Self.assetID(at: name, in: table, tree: batch.albums))
            #expect(!ids.contains(id), "\(name) took the ID of a photo it may not be")
        }
        #expect(table.members.count == 2)
    }

    @Test("Where inodes name files, a photo moved between two directories listed again keeps its ID by inode and birth time; a reused number does not")
    func relistedWithInodes() throws {
        var table = IndexTable()
        let from = table.addAlbum("From")
        _ = table.addAlbum("To")
        let moved = table.addFile("x.jpg", in: from, facts: Self.facts(5, born: 10))
        let reused = table.addFile("y.jpg", in: from, facts: Self.facts(6, born: 20))
        let movedID = try #require(table.asset(rowID: moved)?.id)
        let probe = LibraryProbe(
            lookups: [Self.path("From/x.jpg"): .gone, Self.path("From/y.jpg"): .gone],
            listings: [Self.path("From"): .found([]),
                       Self.path("To"): .found([Self.entry("x2.jpg", Self.facts(5, born: 10)), Self.entry("other.jpg", Self.facts(6, born: 99))])])
        let (batch, _) = try Self.run([.directoryChanged(Self.path("From")), .directoryChanged(Self.path("To"))], on: &table, probe: probe)
        #expect(Self.assetID(at: "To/x2.jpg", in: table, tree: batch.albums) == movedID)
        #expect(table.asset(rowID: reused) == nil, "another file under a reused inode number")
        #expect(table.members.count == 2)
    }

    @Test("A listing older than the stats of what it lacks changes nothing: the row stays, and the directory is left for the next round")
    func unsettledListing() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let kept = table.addFile("a.jpg", in: trips, facts: Self.facts(1, size: 100, time: 1_000))
        let id = try #require(table.asset(rowID: kept)?.id)
        // The listing (fresh) lacks a.jpg, whose cached stat still finds it.
        let probe = LibraryProbe(
            lookups: [Self.path("Trips/a.jpg"): Self.file(Self.facts(1, size: 100, time: 1_000))],
            listings: [Self.path("Trips"): .found([Self.entry("renamed.jpg", Self.facts(9, size: 100, time: 1_000))])])
        let (batch, changes) = try Self.run([.directoryChanged(Self.path("Trips"))], on: &table, probe: probe, trustsInodes: false)
        #expect(batch.outcome.unsettled == [Self.path("Trips")])
        #expect(changes.isEmpty)
        #expect(Self.assetID(at: "Trips/a.jpg", in: table, tree: batch.albums) == id)
        #expect(table.members.count == 1, "nothing new taken from a listing not believed")
    }
}
