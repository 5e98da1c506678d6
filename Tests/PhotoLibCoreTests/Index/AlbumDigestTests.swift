import PhotoLibCore
import Testing

/// The albums' digests (`AlbumDigest`, `AlbumDigests`): a listing digests as its album's rows did
/// exactly when the scan's plan for it would change nothing, and a scan that trusts them leaves such
/// an album's rows unread.
@Suite("Album digests")
struct AlbumDigestTests {
    static let owner = IndexBatchTests.owner
    static let key = AlbumDigest.Key(k0: 0x1234, k1: 0x5678)

    /// The digests of the table's rows, as the store records them at a clean stop.
    static func digests(of table: IndexTable) -> AlbumDigests {
        let tree = table.tree
        var albums: [AlbumTree.ID: AlbumDigest] = [:]
        for id in tree.allIDs {
            var digest = AlbumDigest()
            for name in tree.children(of: id).keys { digest.addAlbum(name: name, key: key) }
            for (name, file) in table.indexedFiles(inAlbum: id) { digest.addFile(name: name, facts: file.file, refusal: file.refusal, key: key) }
            albums[id] = digest
        }
        return AlbumDigests(key: key, fingerprint: "test", albums: albums)
    }

    static func rowsDigest(_ known: [FileName: IndexedFile], albums: [FileName: AlbumTree.ID]) -> AlbumDigest {
        var digest = AlbumDigest()
        for name in albums.keys { digest.addAlbum(name: name, key: key) }
        for (name, file) in known { digest.addFile(name: name, facts: file.file, refusal: file.refusal, key: key) }
        return digest
    }

    @Test("over thousands of random listings against random rows, the digests agree exactly when the plan has nothing to do")
    func agreesWithThePlan() {
        var random = CountingGenerator()
        let names = ["a.jpg", "b.jpg", "c.heic", "d.mov", "notes.txt", ".hidden.jpg"].map { FileName($0)! }
        var agreed = 0
        for _ in 0..<5_000 {
            // Rows: some of the names, with facts drawn from a small set so that listings often match.
            var known: [FileName: IndexedFile] = [:]
            var rowID: Int64 = 1
            for name in names.prefix(4) where random.next() % 3 != 0 {
                let facts = FileFacts(device: 1, inode: random.next() % 3, birthTime: random.next() % 4 == 0 ? nil : 5,
                                      size: Int64(random.next() % 2), modificationTime: 7, permissions: random.next() % 5 == 0 ? 0o666 : 0o644)
                known[name] = IndexedFile(rowID: rowID, file: facts, refusal: facts.isWritableByOthers ? .writableByOthers : nil)
                rowID += 1
            }
            let knownAlbums: [FileName: AlbumTree.ID] = random.next() % 2 == 0 ? [FileName("Sub")!: 50] : [:]
            // A listing: mostly the rows as they are, then changed a little, or not at all.
            var entries: [DirectoryPlan.Entry] = known.map { name, file in
                DirectoryPlan.Entry(name: name, kind: .file(.found(FileObservation(kind: .regular, facts: file.file, owner: Self.owner, linkCount: 1))))
            }
            entries += knownAlbums.keys.map { DirectoryPlan.Entry(name: $0, kind: .directory) }
            switch random.next() % 12 {
            case 0: entries.removeAll()
            case 1: if !entries.isEmpty { entries.removeFirst() }
            case 2: entries.append(DirectoryPlan.Entry(name: names[Int(random.next() % 6)], kind: .file(.found(FileObservation(
                kind: .regular, facts: FileFacts(device: 1, inode: 9, size: 1, modificationTime: 7, permissions: 0o644), owner: Self.owner, linkCount: 1)))))
            case 3: entries.append(DirectoryPlan.Entry(name: FileName("Other")!, kind: .directory))
            case 4: if let first = entries.first { entries[0] = DirectoryPlan.Entry(name: first.name, kind: .file(.unreadable(FileSystemFailure(call: "statx", errno: 13)))) }
            case 5: if let first = entries.first { entries[0] = DirectoryPlan.Entry(name: first.name, kind: .file(.gone)) }
            case 6: if let first = entries.first, case .file(.found(var found)) = first.kind {
                found.facts.modificationTime += 1
                entries[0] = DirectoryPlan.Entry(name: first.name, kind: .file(.found(found)))
            }
            case 7: if let first = entries.first, case .file(.found(var found)) = first.kind {
                found.owner = 0  // another user's now: refused
                entries[0] = DirectoryPlan.Entry(name: first.name, kind: .file(.found(found)))
            }
            case 8: if let first = entries.first, case .file(.found(var found)) = first.kind {
                found.kind = .symlink
                entries[0] = DirectoryPlan.Entry(name: first.name, kind: .file(.found(found)))
            }
            default: break
            }
            entries.shuffle(using: &random)
            let plan = DirectoryPlan.plan(listing: .found(entries), knownFiles: known, knownAlbums: knownAlbums, policy: .standard, daemonUID: Self.owner)
            let nothingToDo = plan.newFiles.isEmpty && plan.changedFiles.isEmpty && plan.vanishedFiles.isEmpty && plan.newAlbums.isEmpty
                && plan.goneAlbums.isEmpty && plan.unreadable.isEmpty
            let digests = AlbumDigests(key: Self.key, fingerprint: "test", albums: [7: Self.rowsDigest(known, albums: knownAlbums)])
            let unchanged = digests.unchanged(7, listing: .found(entries), policy: .standard, daemonUID: Self.owner)
            #expect((unchanged != nil) == nothingToDo, "\(entries) against \(known), \(knownAlbums): \(plan)")
            if let unchanged {
                #expect(unchanged == plan.fileCount)
                agreed += 1
            }
        }
        #expect(agreed > 500, "enough listings were unchanged for the test to mean something: \(agreed)")
    }

    @Test("under another key, the same rows digest otherwise; an album without digest, or not listed, is never unchanged")
    func keyed() {
        let name = FileName("a.jpg")!
        let facts = IndexBatchTests.facts(1)
        var one = AlbumDigest(), other = AlbumDigest()
        one.addFile(name: name, facts: facts, refusal: nil, key: Self.key)
        other.addFile(name: name, facts: facts, refusal: nil, key: AlbumDigest.Key(k0: 1, k1: 2))
        #expect(one != other)
        let digests = AlbumDigests(key: Self.key, fingerprint: "test", albums: [7: one])
        let listing = Lookup<[DirectoryPlan.Entry]>.found([IndexBatchTests.entry("a.jpg", facts)])
        #expect(digests.unchanged(7, listing: listing, policy: .standard, daemonUID: Self.owner) == 1)
        #expect(digests.unchanged(8, listing: listing, policy: .standard, daemonUID: Self.owner) == nil)
        #expect(digests.unchanged(7, listing: .gone, policy: .standard, daemonUID: Self.owner) == nil)
        #expect(digests.unchanged(7, listing: .unreadable(FileSystemFailure(call: "statx", errno: 13)), policy: .standard, daemonUID: Self.owner) == nil)
    }

    @Test("a full scan trusting the digests leaves an unchanged album's rows unread, and reads and puts right one that changed")
    func fullScanTrusts() throws {
        var table = IndexTable()
        let trips = table.addAlbum("Trips")
        let home = table.addAlbum("Home")
        table.addFile("a.jpg", in: trips, facts: IndexBatchTests.facts(1))
        table.addFile("b.jpg", in: home, facts: IndexBatchTests.facts(2))
        let digests = Self.digests(of: table)
        let walked = LibraryProbe(listings: [
            .root: .found([IndexBatchTests.album("Trips"), IndexBatchTests.album("Home")]),
            IndexBatchTests.path("Trips"): .found([IndexBatchTests.entry("a.jpg", IndexBatchTests.facts(1))]),
            IndexBatchTests.path("Home"): .found([IndexBatchTests.entry("b.jpg", IndexBatchTests.facts(2, size: 300))]),
        ])
        // The rows of Trips made to differ from what was digested (as no start could: only to show
        // which rows the scan reads): trusted, Trips keeps them; Home's listing changed, and is read.
        table.setSize(300, of: "a.jpg", in: trips)
        let recorder = ChangeRecorder(recording: true)
        var batch = IndexBatch(rows: table, albums: table.tree, unreadable: [:], probe: walked, policy: .standard,
                               daemonUID: Self.owner, recorder: recorder)
        var counted = 0
        try batch.fullScan(trusting: digests) { counted += $0 }
        #expect(batch.unchangedListings == 2, "the root and Trips")
        #expect(counted == 2, "every file is counted, trusted or read")
        #expect(batch.rows.member(album: trips, name: FileName("a.jpg")!)?.file.size == 300, "Trips' rows were not read")
        #expect(batch.rows.member(album: home, name: FileName("b.jpg")!)?.file.size == 300, "Home's were, and follow its listing")
        #expect(batch.changedAlbums == [home])

        // Without the digests, the same scan reads Trips too.
        var again = IndexBatch(rows: batch.rows, albums: batch.albums, unreadable: [:], probe: walked, policy: .standard,
                               daemonUID: Self.owner, recorder: ChangeRecorder(recording: true))
        try again.fullScan()
        #expect(again.unchangedListings == 0)
        #expect(again.rows.member(album: trips, name: FileName("a.jpg")!)?.file.size == 100)
    }
}
