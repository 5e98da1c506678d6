import PhotoLibCore
import Testing

/// The rules that keep the promise on messy libraries (SPEC §3), on fakes: no filesystem, no daemon.
@Suite("Messy libraries: what a listing, a lookup or an error means")
struct MessyLibraryRuleTests {
    static let owner: UInt32 = 1000
    let policy = AssetNamePolicy.standard

    func facts(inode: UInt64, birth: Int64? = 7, size: Int64 = 10, mtime: Int64 = 5, mode: UInt32 = 0o644) -> FileFacts {
        FileFacts(device: 1, inode: inode, birthTime: birth, size: size, modificationTime: mtime, permissions: mode)
    }

    func file(_ facts: FileFacts, owner: UInt32 = owner, kind: FileObservation.Kind = .regular) -> FileObservation {
        FileObservation(kind: kind, facts: facts, owner: owner, linkCount: 1)
    }

    func name(_ text: String) -> FileName { FileName(text)! }

    // MARK: An error is not a deletion

    @Test("only ENOENT, ENOTDIR and ELOOP (a symlink now) prove something is gone", arguments: [
        (Int32(2), true), (20, true), (40, true), (13, false), (5, false), (24, false), (1, false), (116, false),
    ])
    func whichErrorsMeanGone(errno: Int32, gone: Bool) {
        #expect(FileSystemFailure(call: "openat", errno: errno).meansGone == gone)
        let lookup = Lookup<Int>(failure: FileSystemFailure(call: "openat", errno: errno))
        #expect(gone ? lookup == .gone : lookup == .unreadable(FileSystemFailure(call: "openat", errno: errno)))
    }

    @Test("a directory that cannot be listed keeps every file and album below it, and is named")
    func unreadableListingKeepsEverything() {
        let eacces = FileSystemFailure(call: "openat", errno: 13)
        let plan = DirectoryPlan.plan(
            listing: .unreadable(eacces),
            knownFiles: [name("a.jpg"): IndexedFile(rowID: 1, file: facts(inode: 10))],
            knownAlbums: [name("Trip"): 5], policy: policy, daemonUID: Self.owner)
        #expect(plan.vanishedFiles.isEmpty)
        #expect(plan.goneAlbums.isEmpty)
        #expect(plan.keptAlbums.isEmpty, "nothing to descend into: it could not be listed")
        #expect(plan.unreadable == [DirectoryPlan.Unreadable(name: nil, failure: eacces)])
    }

    @Test("a file whose lookup fails with EACCES or EIO keeps its row; a missing one vanishes")
    func unreadableFileKeepsItsRow() {
        let eio = FileSystemFailure(call: "statx", errno: 5)
        let plan = DirectoryPlan.plan(
            listing: .found([
                .init(name: name("kept.jpg"), kind: .file(.unreadable(eio))),
                .init(name: name("raced.jpg"), kind: .file(.gone)),
            ]),
            knownFiles: [
                name("kept.jpg"): IndexedFile(rowID: 1, file: facts(inode: 10)),
                name("raced.jpg"): IndexedFile(rowID: 2, file: facts(inode: 11)),
                name("deleted.jpg"): IndexedFile(rowID: 3, file: facts(inode: 12)),
            ],
            knownAlbums: [:], policy: policy, daemonUID: Self.owner)
        #expect(plan.vanishedFiles == [2, 3])
        #expect(plan.unreadable == [DirectoryPlan.Unreadable(name: name("kept.jpg"), failure: eio)])
    }

    @Test("an event whose lookup fails keeps the asset; only gone deletes it")
    func eventLookupErrors() {
        let known = IndexedFile(rowID: 1, file: facts(inode: 10))
        let eacces = FileSystemFailure(call: "statx", errno: 13)
        #expect(FileRefresh.decide(known: known, found: .unreadable(eacces), admission: .always, daemonUID: Self.owner) == .keep(eacces))
        #expect(FileRefresh.decide(known: known, found: .gone, admission: .always, daemonUID: Self.owner) == .delete)
        #expect(FileRefresh.decide(known: known, found: .found(file(facts(inode: 10), kind: .symlink)), admission: .always,
                                   daemonUID: Self.owner) == .delete)
        #expect(FileRefresh.decide(known: nil, found: .unreadable(eacces), admission: .always, daemonUID: Self.owner) == .nothing)
    }

    // MARK: Dot-directories

    @Test("nothing under a dot-directory is in the library", arguments: [
        (".dtrash/files/a.jpg", false), (".Trash-1000/files/a.jpg", false), ("Trip/.thumbnails/x.png", false),
        (".git/objects/a.jpg", false), ("Trip/a.jpg", true), ("a.jpg", true), ("Trip/Day 1/b.jpg", true),
    ])
    func dotDirectories(path: String, inLibrary: Bool) {
        #expect(LibraryScope.contains(RelativePath(escaped: path)!) == inLibrary)
    }

    @Test("a listing's dot-directories are not albums, and a known album renamed to a dot-name is gone")
    func dotDirectoriesInListings() {
        let plan = DirectoryPlan.plan(
            listing: .found([.init(name: name(".dtrash"), kind: .directory), .init(name: name("Trip"), kind: .directory)]),
            knownFiles: [:], knownAlbums: [name("Old"): 9], policy: policy, daemonUID: Self.owner)
        #expect(plan.newAlbums == [name("Trip")])
        #expect(plan.goneAlbums == [9])
    }

    // MARK: Reused inode numbers

    @Test("a reused inode number with another birth time is another file")
    func reusedInodeIsAnotherFile() {
        let old = facts(inode: 42, birth: 1_000)
        #expect(FileIdentity.isSameFile(indexed: old, found: facts(inode: 42, birth: 1_000, size: 99, mtime: 77)), "a moved, edited file keeps its ID")
        #expect(!FileIdentity.isSameFile(indexed: old, found: facts(inode: 42, birth: 2_000)), "a new file given the freed number")
        #expect(!FileIdentity.isSameFile(indexed: old, found: facts(inode: 43, birth: 1_000)))
    }

    @Test("without birth times, the same inode counts only with the same size and time")
    func conservativeWithoutBirthTimes() {
        let old = facts(inode: 42, birth: nil)
        #expect(FileIdentity.isSameFile(indexed: old, found: facts(inode: 42, birth: nil)))
        #expect(FileIdentity.isSameFile(indexed: old, found: facts(inode: 42, birth: 5)), "a row indexed before birth times were read")
        #expect(!FileIdentity.isSameFile(indexed: old, found: facts(inode: 42, birth: nil, size: 11)))
        #expect(!FileIdentity.isSameFile(indexed: old, found: facts(inode: 42, birth: nil, mtime: 6)))
    }

    @Test("learning a birth time is no change apps see; a different one is")
    func birthTimeBackfill() {
        let known = IndexedFile(rowID: 1, file: facts(inode: 10, birth: nil))
        #expect(FileRefresh.decide(known: known, found: .found(file(facts(inode: 10, birth: 7))), admission: .never,
                                   daemonUID: Self.owner) == .update(facts(inode: 10, birth: 7), refusal: nil, isVisible: false))
        let dated = IndexedFile(rowID: 1, file: facts(inode: 10, birth: 7))
        #expect(FileRefresh.decide(known: dated, found: .found(file(facts(inode: 10, birth: 8))), admission: .never,
                                   daemonUID: Self.owner) == .update(facts(inode: 10, birth: 8), refusal: nil, isVisible: true))
        #expect(FileRefresh.decide(known: dated, found: .found(file(facts(inode: 10, birth: 7))), admission: .never,
                                   daemonUID: Self.owner) == .nothing)
    }

    // MARK: Refused originals

    @Test("a file the owner cannot safely link is refused alone, with its reason", arguments: [
        (UInt32(0), UInt32(0o644), LinkRefusal?.some(.ownedByAnotherUser)),
        (owner, 0o666, .writableByOthers), (owner, 0o664, .writableByOthers),
        (owner, 0o4755, .setID), (owner, 0o2644, .setID),
        (owner, 0o644, nil), (owner, 0o600, nil), (owner, 0o444, nil),
    ])
    func refusals(fileOwner: UInt32, mode: UInt32, refusal: LinkRefusal?) {
        #expect(LinkRefusal.judge(file(facts(inode: 1, mode: mode), owner: fileOwner), daemonUID: Self.owner) == refusal)
    }

    @Test("a refused file is still indexed (so assets and doctor can name it), and its neighbours are not")
    func refusedFileIsIndexedAlone() {
        let plan = DirectoryPlan.plan(
            listing: .found([
                .init(name: name("sudo-copied.jpg"), kind: .file(.found(file(facts(inode: 1), owner: 0)))),
                .init(name: name("mine.jpg"), kind: .file(.found(file(facts(inode: 2))))),
            ]),
            knownFiles: [:], knownAlbums: [:], policy: policy, daemonUID: Self.owner)
        #expect(plan.newFiles.map(\.name) == [name("sudo-copied.jpg"), name("mine.jpg")])
        #expect(plan.newFiles.map(\.refusal) == [.ownedByAnotherUser, nil])
    }

    @Test("the kernel's EPERM and EMLINK on link are refusals; other link errors are not")
    func linkFailures() {
        #expect(LinkRefusal(linkFailure: 1) == .linkNotPermitted)
        #expect(LinkRefusal(linkFailure: 31) == .tooManyLinks)
        #expect(LinkRefusal(linkFailure: 28) == nil)  // ENOSPC: the views' problem, not the file's
        #expect(LinkRefusal.allCases.allSatisfy { !$0.explanation.isEmpty })
    }

    @Test("the opened source must be the indexed inode, a regular file, and linkable")
    func linkVerdicts() {
        let good = file(facts(inode: 5))
        #expect(LinkVerdict.judge(good, expectedInode: 5, daemonUID: Self.owner) == .link)
        #expect(LinkVerdict.judge(good, expectedInode: 6, daemonUID: Self.owner) == .notTheIndexedFile)
        #expect(LinkVerdict.judge(file(facts(inode: 5), kind: .other), expectedInode: 5, daemonUID: Self.owner) == .notTheIndexedFile)
        #expect(LinkVerdict.judge(file(facts(inode: 5), kind: .symlink), expectedInode: 5, daemonUID: Self.owner) == .notTheIndexedFile)
        #expect(LinkVerdict.judge(file(facts(inode: 5, mode: 0o4755)), expectedInode: 5, daemonUID: Self.owner) == .refuse(.setID))
        #expect(LinkVerdict.judge(file(facts(inode: 5), owner: 0), expectedInode: 5, daemonUID: Self.owner) == .refuse(.ownedByAnotherUser))
    }

    @Test("a symlink or FIFO with a photo name is never an asset")
    func nonRegularNeverAssets() {
        let plan = DirectoryPlan.plan(
            listing: .found([
                .init(name: name("link.jpg"), kind: .file(.found(file(facts(inode: 1), kind: .symlink)))),
                .init(name: name("fifo.jpg"), kind: .file(.found(file(facts(inode: 2), kind: .other)))),
            ]),
            knownFiles: [name("fifo.jpg"): IndexedFile(rowID: 4, file: facts(inode: 2))], knownAlbums: [:], policy: policy,
            daemonUID: Self.owner)
        #expect(plan.newFiles.isEmpty)
        #expect(plan.vanishedFiles == [4])
    }
}

@Suite("View names")
struct ViewNameTests {
    @Test("a view's name is random, never the app ID, and recognisable as photolibd's")
    func randomNames() {
        var generator = SystemRandomNumberGenerator()
        let names = (0..<100).map { _ in ViewName.random(using: &generator) }
        #expect(Set(names).count == 100)
        #expect(names.allSatisfy(ViewName.isViewName))
        #expect(!ViewName.isViewName(FileName("org.example.Viewer")!))
        #expect(!ViewName.isViewName(FileName("view-short")!))
        #expect(!ViewName.isViewName(FileName("precious.txt")!))
    }
}
