import PhotoLibCore
import Testing

/// A first scan written in parts as the walk's listings arrive (`IndexBatch.scanListed`) leaves
/// the rows one full scan of the same listings would: the same albums, files, assets, refusals
/// and unreadable places, however the listings are ordered (each after its parent) and cut.
@Suite("First scan in parts")
struct FirstScanTests {
    static let owner = IndexBatchTests.owner

    /// What a scan left, by path: comparable across tables whose row numbers differ.
    struct Outcome: Equatable {
        var albums: Set<RelativePath> = []
        var files: [RelativePath: String] = [:]
        /// The files of each asset with more than one (a Live Photo's two).
        var groups: Set<Set<RelativePath>> = []
        var unreadable: [RelativePath: FileSystemFailure] = [:]
        var changedAlbums: Set<RelativePath> = []
        var createdAlbums: Set<RelativePath> = []
        var filesCounted = 0
    }

    static func outcome(_ batch: IndexBatch<IndexTable>, changed: Set<AlbumTree.ID>, created: Set<RelativePath>, counted: Int) -> Outcome {
        let tree = batch.albums
        var out = Outcome(unreadable: batch.unreadable, createdAlbums: created, filesCounted: counted)
        out.albums = Set(tree.allIDs.compactMap { tree.path(of: $0) })
        var byAsset: [Int64: Set<RelativePath>] = [:]
        for member in batch.rows.members.values {
            let path = tree.path(of: member.album)!.appending(member.name)
            out.files[path] = "\(member.mediaType) \(member.file) \(String(describing: member.refusal))"
            byAsset[member.asset, default: []].insert(path)
        }
        out.groups = Set(byAsset.values.filter { $0.count > 1 })
        out.changedAlbums = Set(changed.compactMap { tree.path(of: $0) })
        return out
    }

    static func fieldsDiffering(_ one: Outcome, _ other: Outcome) -> [String] {
        var fields: [String] = []
        if one.albums != other.albums { fields.append("albums") }
        if one.files != other.files { fields.append("files") }
        if one.groups != other.groups { fields.append("Live Photo pairs") }
        if one.unreadable != other.unreadable { fields.append("unreadable") }
        if one.changedAlbums != other.changedAlbums { fields.append("changed albums") }
        if one.createdAlbums != other.createdAlbums { fields.append("albums created") }
        if one.filesCounted != other.filesCounted { fields.append("files counted") }
        return fields
    }

    /// A random library's listings, in an order `TreeListing` may hand them on: a directory's
    /// listing, then (among the others waiting) its album children's, drawn at random.
    static func randomWalk(_ random: inout CountingGenerator) -> [(RelativePath, Lookup<[DirectoryPlan.Entry]>)] {
        var inode: UInt64 = 1
        var walked: [(RelativePath, Lookup<[DirectoryPlan.Entry]>)] = []
        var waiting: [(path: RelativePath, depth: Int)] = [(.root, 0)]
        while !waiting.isEmpty {
            let next = waiting.remove(at: Int(random.next() % UInt64(waiting.count)))
            switch random.next() % 20 {
            case 0 where !next.path.isRoot:
                walked.append((next.path, .unreadable(FileSystemFailure(call: "openat", errno: 13))))
                continue
            case 1 where !next.path.isRoot:
                walked.append((next.path, .gone))
                continue
            default: break
            }
            var entries: [DirectoryPlan.Entry] = []
            for stem in ["a", "b", "c", "d"] where random.next() % 3 != 0 {
                let owner = random.next() % 9 == 0 ? 0 : Self.owner
                let permissions: UInt32 = random.next() % 9 == 0 ? 0o666 : 0o644
                // Some stems are Live Photos (a photo and a video), some one file, some also a note.
                var names = ["\(stem).heic"]
                if random.next() % 2 == 0 { names.append("\(stem).mov") }
                if random.next() % 5 == 0 { names.append("\(stem).txt") }
                if random.next() % 7 == 0 { names.append(".\(stem).jpg") }
                for name in names {
                    let kind: Lookup<FileObservation>
                    switch random.next() % 15 {
                    case 0: kind = .unreadable(FileSystemFailure(call: "statx", errno: 13))
                    case 1: kind = .gone
                    default:
                        kind = .found(FileObservation(kind: .regular, facts: FileFacts(device: 1, inode: inode, birthTime: 5, size: 100,
                                                                                       modificationTime: 7, permissions: permissions),
                                                      owner: owner, linkCount: 1))
                    }
                    inode += 1
                    entries.append(DirectoryPlan.Entry(name: FileName(name)!, kind: .file(kind)))
                }
            }
            if next.depth < 3 {
                for album in ["Trips", "Home", "2024"] where random.next() % 2 == 0 {
                    entries.append(DirectoryPlan.Entry(name: FileName(album)!, kind: .directory))
                    waiting.append((next.path.appending(FileName(album)!), next.depth + 1))
                }
                if random.next() % 4 == 0 { entries.append(DirectoryPlan.Entry(name: FileName(".cache")!, kind: .directory)) }
            }
            entries.shuffle(using: &random)
            walked.append((next.path, .found(entries)))
        }
        return walked
    }

    static func albumsCreated(_ recorder: ChangeRecorder) -> Set<RelativePath> {
        Set(recorder.changes.compactMap { if case .albumCreated(let path) = $0 { return path } else { return nil } })
    }

    @Test("over hundreds of random libraries, cut at random into parts, the parts leave what one full scan does")
    func partsMatchOneScan() throws {
        var random = CountingGenerator()
        var parted = 0
        for _ in 0..<400 {
            let walked = Self.randomWalk(&random)
            let probe = LibraryProbe(listings: Dictionary(walked, uniquingKeysWith: { first, _ in first }))

            let whole = ChangeRecorder(recording: true)
            var once = IndexBatch(rows: IndexTable(), albums: IndexTable().tree, unreadable: [:], probe: probe, policy: .standard,
                                  daemonUID: Self.owner, recorder: whole)
            var counted = 0
            try once.fullScan { counted += $0 }
            let expected = Self.outcome(once, changed: once.changedAlbums, created: Self.albumsCreated(whole), counted: counted)

            // The same listings in parts, each a batch of its own over what the parts before it left.
            var table = IndexTable()
            var albums = table.tree
            var unreadable: [RelativePath: FileSystemFailure] = [:]
            var changed: Set<AlbumTree.ID> = []
            var created: Set<RelativePath> = []
            var partCounted = 0
            var rest = walked[...]
            var last: IndexBatch<IndexTable>?
            while !rest.isEmpty {
                let size = 1 + Int(random.next() % UInt64(min(rest.count, 6)))
                let part = rest.prefix(size)
                rest = rest.dropFirst(size)
                let recorder = ChangeRecorder(recording: true)
                var batch = IndexBatch(rows: table, albums: albums, unreadable: unreadable,
                                       probe: LibraryProbe(listings: Dictionary(part.map { $0 }, uniquingKeysWith: { first, _ in first })),
                                       policy: .standard, daemonUID: Self.owner, recorder: recorder)
                // Some listings come with their plan made beforehand, as the daemon's walk makes them.
                var plans: [RelativePath: DirectoryPlan] = [:]
                for (path, listing) in part where random.next() % 2 == 0 {
                    plans[path] = DirectoryPlan.plan(listing: listing, knownFiles: [:], knownAlbums: [:], policy: .standard, daemonUID: Self.owner)
                }
                try batch.scanListed(part.map(\.0), plans: plans) { partCounted += $0 }
                #expect(!batch.outcome.needsFullScan)
                (table, albums, unreadable) = (batch.rows, batch.albums, batch.unreadable)
                changed.formUnion(batch.changedAlbums)
                created.formUnion(Self.albumsCreated(recorder))
                last = batch
                parted += 1
            }
            let got = Self.outcome(last!, changed: changed, created: created, counted: partCounted)
            guard got == expected else {
                Issue.record("the parts of a walk over \(walked.map(\.0)) differ from one scan in \(Self.fieldsDiffering(got, expected))")
                return
            }
        }
        #expect(parted > 1_000, "enough parts for the test to mean something: \(parted)")
    }

    @Test("a listing whose parent has no album yet is not guessed at: the part asks for a full scan and makes nothing for it")
    func orphanAsksForFullScan() throws {
        let inner = IndexBatchTests.path("Trips/Inner")
        var batch = IndexBatch(rows: IndexTable(), albums: IndexTable().tree, unreadable: [:],
                               probe: LibraryProbe(listings: [inner: .found([IndexBatchTests.entry("a.jpg", IndexBatchTests.facts(1))])]),
                               policy: .standard, daemonUID: Self.owner, recorder: ChangeRecorder(recording: false))
        try batch.scanListed([inner])
        #expect(batch.outcome.needsFullScan)
        #expect(batch.rows.members.isEmpty)
        #expect(batch.albums.count == 1)
    }
}
