import PhotoLibCore
@testable import PhotoLibDaemon
import Testing

/// The owner of verification rounds on its own: no library, no thread, no engine. What a round
/// covers and in which pieces, which stamps it trusts, what its end keeps and says, and when the
/// server's reach changes.
@Suite("Verification rounds' owner")
struct LibraryRoundsTests {
    static let nfs = FilesystemKind(magic: 0x6969)
    static let ext4 = FilesystemKind(magic: 0xEF53)

    static func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }

    static func stamp(_ inode: UInt64) -> DirectoryStamp {
        DirectoryStamp(facts: FileFacts(device: 1, inode: inode, size: 4096, modificationTime: 7, permissions: 0o755), lookedAt: 1)
    }

    static func albums(_ count: Int) -> [(AlbumTree.ID, RelativePath)] {
        (0..<count).map { (AlbumTree.ID($0 + 2), path("A\($0)")) }
    }

    /// A round that found `stamps`, with every look answered.
    static func tally(_ stamps: [String: UInt64], events: [WatchEvent] = [], root: FileSystemFailure? = nil, answered: Int = 10,
                      serverAway: FileSystemFailure? = nil, failure: String? = nil) -> RoundTally {
        var found = RoundLook.Found()
        found.events = events
        found.stamps = Dictionary(uniqueKeysWithValues: stamps.map { (path($0.key), stamp($0.value)) })
        found.files = stamps.count
        found.root = root
        found.answered = answered
        found.serverAway = serverAway
        var tally = RoundTally()
        tally.add(found)
        tally.failure = failure
        return tally
    }

    @Test("a remote library is covered whole, a local one only where watches failed; nothing covered, no round")
    func coverage() {
        let remote = LibraryRounds(filesystem: Self.nfs, daemonUID: 1000)
        #expect(remote.isRemote && remote.coverage(unwatched: []).remoteFilesystem == "nfs")
        let local = LibraryRounds(filesystem: Self.ext4, daemonUID: 1000)
        #expect(!local.isRemote && local.coverage(unwatched: []).isEmpty)
        #expect(local.coverage(unwatched: [Self.path("Deep")]).covers(Self.path("Deep/Er")))
        #expect(!LibraryRounds(filesystem: nil, daemonUID: 1000).isRemote, "a filesystem fstatfs could not name is taken as local")
    }

    @Test("a round is cut into pieces of 64 albums, in order; a network one lists before it stats")
    func pieces() {
        let rounds = LibraryRounds(filesystem: Self.nfs, daemonUID: 1000)
        let albums = Self.albums(150)
        let pieces = rounds.pieces(of: albums, coverage: rounds.coverage(unwatched: []), unreadable: [])
        #expect(pieces.map(\.albums.count) == [64, 64, 22])
        #expect(pieces.flatMap { $0.albums.map(\.1) } == albums.map(\.1))
        #expect(pieces.allSatisfy { $0.listsBeforeStats && $0.daemonUID == 1000 })
        let local = LibraryRounds(filesystem: Self.ext4, daemonUID: 1000)
        #expect(local.pieces(of: albums, coverage: local.coverage(unwatched: [Self.path("A1")]), unreadable: []).allSatisfy { !$0.listsBeforeStats })
        #expect(rounds.pieces(of: [], coverage: rounds.coverage(unwatched: []), unreadable: []).isEmpty)
    }

    @Test("a round's end keeps what it saw in place of the last; the next round trusts those stamps, except where something could not be read or a listing disagreed")
    func stamps() {
        var rounds = LibraryRounds(filesystem: Self.nfs, daemonUID: 1000)
        let coverage = rounds.coverage(unwatched: [])
        _ = rounds.ended(Self.tally(["A0": 10, "A1": 11, "A2": 12, "Gone": 13]), coverage: coverage, directories: 4,
                         intervalMilliseconds: 30_000, at: 100, tookMilliseconds: 5)
        _ = rounds.ended(Self.tally(["A0": 10, "A1": 11, "A2": 12, "A2/B": 14]), coverage: coverage, directories: 4,
                         intervalMilliseconds: 30_000, at: 130, tookMilliseconds: 5)
        #expect(rounds.stamps[Self.path("Gone")] == nil, "a directory no round covers any more is let go")
        #expect(rounds.stamps[Self.path("A2/B")] == Self.stamp(14))
        rounds.forget([Self.path("A0")])
        // A file unreadable in A2/B: that directory and its parent are listed again.
        let piece = rounds.pieces(of: Self.albums(3), coverage: coverage, unreadable: [Self.path("A2/B/x.jpg"), Self.path("A2/B")])[0]
        #expect(Set(piece.stamps.keys) == [Self.path("A1")])
    }

    @Test("a round's end sums it up for status, and only a remote library's round that looked at everything judges the server")
    func ending() {
        let away = FileSystemFailure(call: "statx", errno: 107)  // ENOTCONN
        var remote = LibraryRounds(filesystem: Self.nfs, daemonUID: 1000)
        let coverage = remote.coverage(unwatched: [])
        let event = WatchEvent.fileWritten(Self.path("A0/new.jpg"))
        let (summary, reach) = remote.ended(Self.tally(["A0": 1, "A1": 2], events: [event]), coverage: coverage, directories: 2,
                                            intervalMilliseconds: 60_000, at: 100, tookMilliseconds: 40)
        #expect(summary == RoundsSummary(reason: coverage.description, directories: 2, files: 2, intervalSeconds: 60, lastRoundAt: 100,
                                         lastRoundMilliseconds: 40, lastFailure: nil))
        #expect(reach == nil, "the server answered")
        let failed = remote.ended(Self.tally([:], root: away, answered: 0, serverAway: away, failure: "cannot hand the library to its thread"),
                                  coverage: coverage, directories: 2, intervalMilliseconds: 60_000, at: 160, tookMilliseconds: 1)
        #expect(failed.summary.lastFailure == "cannot hand the library to its thread")
        #expect(failed.reach == nil, "a round that could not look at everything judges nothing")
        guard case .lost(let outage)? = remote.ended(Self.tally([:], root: away, answered: 0, serverAway: away), coverage: coverage,
                                                     directories: 2, intervalMilliseconds: 60_000, at: 220, tookMilliseconds: 1).reach else {
            Issue.record("the root's ENOTCONN is the server away")
            return
        }
        #expect(remote.reach.outage == outage)
        #expect(remote.ended(Self.tally(["A0": 1]), coverage: coverage, directories: 2, intervalMilliseconds: 60_000, at: 280,
                             tookMilliseconds: 1).reach == .returned(outage, at: 280))

        var local = LibraryRounds(filesystem: Self.ext4, daemonUID: 1000)
        #expect(local.ended(Self.tally([:], root: away, answered: 0, serverAway: away), coverage: local.coverage(unwatched: [Self.path("A0")]),
                            directories: 1, intervalMilliseconds: 60_000, at: 100, tookMilliseconds: 1).reach == nil,
                "a local disk's failure is a failing disk, named by the unreadable paths")
    }

    @Test("the library's thread held past 15 s is a remote server away; a local library's never is")
    func held() {
        var remote = LibraryRounds(filesystem: Self.nfs, daemonUID: 1000)
        #expect(remote.held(forMilliseconds: 14_000, at: 1000) == nil)
        guard case .lost(let outage)? = remote.held(forMilliseconds: 20_000, at: 1000) else {
            Issue.record("a look held 20 s is the server away")
            return
        }
        #expect(outage.since == 980)
        var local = LibraryRounds(filesystem: Self.ext4, daemonUID: 1000)
        #expect(local.held(forMilliseconds: 60_000, at: 1000) == nil)
    }
}
