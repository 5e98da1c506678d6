import PhotoLibCore
import Testing

/// Verification rounds' rules, on values: when a round runs, which directories it lists again, which
/// files' stats ask for an event, and what it covers.
@Suite("Verification rounds")
struct RoundTests {
    static func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }
    static let second: Int64 = 1_000_000_000

    static func directory(_ inode: UInt64 = 9, time: Int64) -> FileFacts {
        FileFacts(device: 1, inode: inode, size: 4096, modificationTime: time, permissions: 0o755)
    }

    @Test("Rounds back off while nothing changes, up to four times the interval, and come back to it at a change")
    func schedule() {
        var schedule = RoundSchedule(base: 30_000)
        #expect(schedule.interval == 30_000)
        schedule.roundEnded(foundChanges: false)
        #expect(schedule.interval == 60_000)
        schedule.roundEnded(foundChanges: false)
        schedule.roundEnded(foundChanges: false)
        #expect(schedule.interval == 120_000, "never past four times the interval")
        schedule.roundEnded(foundChanges: true)
        #expect(schedule.interval == 30_000)
        #expect(RoundSchedule(base: 10).interval == 1_000, "not more often than once a second")
    }

    @Test("A directory is listed again when never seen, when its time, size or identity moved, and while its stamp is too fresh to trust")
    func stamps() {
        let old = Self.directory(time: 100 * Self.second)
        let settled = DirectoryStamp(facts: old, lookedAt: 200 * Self.second)
        #expect(DirectoryStamp.mustList(recorded: nil, found: old))
        #expect(!DirectoryStamp.mustList(recorded: settled, found: old), "unchanged and settled: its files are statted instead")
        #expect(DirectoryStamp.mustList(recorded: settled, found: Self.directory(time: 101 * Self.second)))
        #expect(DirectoryStamp.mustList(recorded: settled, found: Self.directory(8, time: 100 * Self.second)), "another directory under the name")
        // Seen in the same second as a change: a second change in that second leaves the same time.
        let fresh = DirectoryStamp(facts: old, lookedAt: 100 * Self.second + 500_000_000)
        #expect(DirectoryStamp.mustList(recorded: fresh, found: old))
        // A stamp that moved is recorded unconfirmed: the next round lists again (its listing may have
        // come from a cache older than the stamp), and finding it unchanged then confirms it.
        let moved = Self.directory(time: 150 * Self.second)
        let first = DirectoryStamp.recorded(recorded: settled, found: moved, lookedAt: 300 * Self.second, listed: true)
        #expect(!first.confirmed && DirectoryStamp.mustList(recorded: first, found: moved))
        let second = DirectoryStamp.recorded(recorded: first, found: moved, lookedAt: 301 * Self.second, listed: true)
        #expect(second.confirmed && !DirectoryStamp.mustList(recorded: second, found: moved))
    }

    @Test("What a round does with a directory: gone, listed (changed or unreadable), or its files statted")
    func directories() {
        let facts = Self.directory(time: 100 * Self.second)
        let settled = DirectoryStamp(facts: facts, lookedAt: 200 * Self.second)
        let found = Lookup<FileObservation>.found(FileObservation(kind: .directory, facts: facts, owner: 1000, linkCount: 2))
        #expect(RoundJudgement.directory(recorded: settled, found: found) == .statFiles)
        #expect(RoundJudgement.directory(recorded: nil, found: found) == .list)
        #expect(RoundJudgement.directory(recorded: settled, found: .gone) == .gone)
        #expect(RoundJudgement.directory(recorded: settled, found: .unreadable(FileSystemFailure(call: "statx", errno: 5))) == .list,
                "an error is never taken for an answer: the listing records it, and the rows stay")
        let file = Lookup<FileObservation>.found(FileObservation(kind: .regular, facts: facts, owner: 1000, linkCount: 1))
        #expect(RoundJudgement.directory(recorded: settled, found: file) == .gone, "a file now: the directory went")
    }

    @Test("A file's own stat asks for its event when it was edited, chmodded or cannot be read, for its directory's listing when it went; nothing when it is as indexed")
    func files() {
        let facts = FileFacts(device: 1, inode: 5, size: 100, modificationTime: 7, permissions: 0o644)
        let known = IndexedFile(rowID: 1, file: facts)
        func found(_ facts: FileFacts) -> Lookup<FileObservation> {
            .found(FileObservation(kind: .regular, facts: facts, owner: 1000, linkCount: 1))
        }
        #expect(RoundJudgement.file(known: known, found: found(facts), daemonUID: 1000) == .unchanged)
        #expect(RoundJudgement.file(known: known, found: found(FileFacts(device: 1, inode: 5, size: 200, modificationTime: 8, permissions: 0o644)), daemonUID: 1000) == .changed)
        #expect(RoundJudgement.file(known: known, found: found(FileFacts(device: 1, inode: 5, size: 100, modificationTime: 7, permissions: 0o600)), daemonUID: 1000) == .changed)
        #expect(RoundJudgement.file(known: known, found: .unreadable(FileSystemFailure(call: "statx", errno: 13)), daemonUID: 1000) == .changed)
        #expect(RoundJudgement.file(known: known, found: .gone, daemonUID: 1000) == .gone,
                "gone: its directory is listed again, where a rename shows as one, not a removal")
    }

    @Test("Rounds cover the whole library on a remote filesystem, else the unwatched directories with everything below them")
    func coverage() {
        var tree = AlbumTree()
        tree.insert(id: 2, parent: AlbumTree.rootID, name: FileName("Trips")!)
        tree.insert(id: 3, parent: 2, name: FileName("Rome")!)
        tree.insert(id: 4, parent: AlbumTree.rootID, name: FileName("Home")!)
        #expect(RoundCoverage().isEmpty)
        let remote = RoundCoverage(remoteFilesystem: "fuse")
        #expect(Set(remote.albums(in: tree).map(\.0)) == [AlbumTree.rootID, 2, 3, 4])
        #expect(remote.covers(Self.path("Home")))
        let unwatched = RoundCoverage(unwatched: [Self.path("Trips"), Self.path("Trips/Rome")])
        #expect(unwatched.albums(in: tree).map(\.0).sorted() == [2, 3], "each album once")
        #expect(unwatched.covers(Self.path("Trips/Rome/x")) && !unwatched.covers(Self.path("Home")))
        #expect(unwatched.description.contains("max_user_watches"))
    }

    @Test("Where inode numbers are made up they name nothing: sshfs's and SMB's; a local filesystem's and NFS's do")
    func inodeTrust() {
        #expect(!FilesystemKind(magic: 0x6573_5546).trustsInodeNumbers)  // fuse
        #expect(!FilesystemKind(magic: 0xFE53_4D42).trustsInodeNumbers)  // smb2
        #expect(FilesystemKind(magic: 0xEF53).trustsInodeNumbers)
        #expect(FilesystemKind(magic: 0x6969).trustsInodeNumbers)  // nfs
    }

    @Test("A listing is believed when what it names could be looked up and what it lacks is gone by its own stat; not when caches of different ages disagree")
    func listingAgreement() {
        let file = Lookup<FileObservation>.found(FileObservation(kind: .regular, facts: Self.directory(time: 1), owner: 1000, linkCount: 1))
        let entry = { (name: String) in DirectoryPlan.Entry(name: FileName(name)!, kind: .file(file)) }
        let known: Set<FileName> = [FileName("a.jpg")!, FileName("b.jpg")!]
        // Renamed on the server: a.jpg lacking, gone by its own stat; renamed.jpg new.
        #expect(RoundJudgement.listingAgrees([entry("renamed.jpg"), entry("b.jpg")], known: known) { _ in .gone })
        // A fresh listing, a stale stat: a.jpg still there by a cached stat.
        #expect(!RoundJudgement.listingAgrees([entry("renamed.jpg"), entry("b.jpg")], known: known) { _ in file })
        // Nothing looked at for what it lacks: not believed.
        #expect(!RoundJudgement.listingAgrees([entry("b.jpg")], known: known) { _ in nil })
        // A stale listing: it names a.jpg, whose own stat says it went.
        let gone = DirectoryPlan.Entry(name: FileName("a.jpg")!, kind: .file(.gone))
        #expect(!RoundJudgement.listingAgrees([gone, entry("b.jpg")], known: known) { _ in .gone })
    }

    @Test("A network library's server is taken for away when its root's look fails as a connection does, every look fails so, or one look waits 15 s; back when a round answers whole")
    func reach() {
        let away = FileSystemFailure(call: "statx", errno: 107)  // ENOTCONN
        let eio = FileSystemFailure(call: "openat", errno: 5)
        var reach = LibraryReach()
        #expect(reach.roundEnded(root: nil, answered: 40, serverAway: eio, at: 100) == nil,
                "one file's EIO among answers is that file's, not the server's")
        #expect(reach.roundEnded(root: FileSystemFailure(call: "statx", errno: 13), answered: 0, serverAway: nil, at: 100) == nil,
                "a mode that refuses is an answer")
        guard case .lost(let outage)? = reach.roundEnded(root: away, answered: 12, serverAway: away, at: 100) else {
            Issue.record("the root's ENOTCONN is the server away")
            return
        }
        #expect(outage.since == 100 && outage.reason.contains("ENOTCONN"))
        #expect(reach.roundEnded(root: nil, answered: 0, serverAway: eio, at: 130) == nil, "already away: one transition")
        #expect(reach.outage == outage, "the first reason and time stand")
        #expect(reach.roundEnded(root: nil, answered: 30, serverAway: eio, at: 160) == nil, "not back while a look fails so")
        #expect(reach.roundEnded(root: nil, answered: 30, serverAway: nil, at: 190) == .returned(outage, at: 190))
        #expect(reach.outage == nil)
        #expect(reach.roundEnded(root: nil, answered: 0, serverAway: eio, at: 200) != nil, "every look failing so is the server away")

        var held = LibraryReach()
        #expect(held.held(forMilliseconds: nil, at: 1000) == nil)
        #expect(held.held(forMilliseconds: 14_999, at: 1000) == nil)
        guard case .lost(let hung)? = held.held(forMilliseconds: 20_000, at: 1000) else {
            Issue.record("a look held 20 s is the server away")
            return
        }
        #expect(hung.since == 980 && hung.reason.contains("20 s"))
        #expect(held.roundEnded(root: nil, answered: 5, serverAway: nil, at: 1040) == .returned(hung, at: 1040))
        #expect(FileSystemFailure(call: "statx", errno: 116).meansServerAway, "ESTALE")
        #expect(!FileSystemFailure(call: "statx", errno: 2).meansServerAway && !FileSystemFailure(call: "statx", errno: 13).meansServerAway)
    }
}
