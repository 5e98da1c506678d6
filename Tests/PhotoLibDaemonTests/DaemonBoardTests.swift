import Synchronization
import Testing
import PhotoLibCore
@testable import PhotoLibDaemon

/// A clock a test sets by hand.
final class SetClock: WallClock {
    private let milliseconds: Mutex<Int64>
    init(seconds: Int64) { milliseconds = Mutex(seconds * 1000) }
    func now() -> Int64 { milliseconds.withLock { $0 / 1000 } }
    func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
}

/// A connection's identity, as the boards see it.
private final class FakeConnection {}

private struct FakePickWaiter: ConnectionBound {
    let connection: ObjectIdentifier
    let name: String
}

@Suite("The daemon's shared boards: waits, picks, connections, listings, status")
struct DaemonBoardTests {
    @Test("an answer reaches every connection waiting for its request, once")
    func answerReachesWaiters() throws {
        let board = AnswerBoard<String>()
        let (a, b) = (FakeConnection(), FakeConnection())
        let heard = Mutex<[String]>([])
        try board.wait(for: 7, .init(connection: ObjectIdentifier(a)) { outcome in heard.withLock { $0.append("a:" + outcome) } })
        try board.wait(for: 7, .init(connection: ObjectIdentifier(b)) { outcome in heard.withLock { $0.append("b:" + outcome) } })
        try board.wait(for: 8, .init(connection: ObjectIdentifier(b)) { outcome in heard.withLock { $0.append("b8:" + outcome) } })
        #expect(board.waiting(for: 7) == 2)
        board.resolve(7, with: "allow")
        board.resolve(7, with: "again")
        #expect(heard.withLock { $0 }.sorted() == ["a:allow", "b:allow"])
        #expect(board.waiting(for: 7) == 0)
        #expect(board.isWaiting(ObjectIdentifier(b)))
        #expect(!board.isWaiting(ObjectIdentifier(a)))
    }

    @Test("a connection may wait on at most sixteen requests; a closed one waits on none")
    func answerLimitPerConnection() throws {
        let board = AnswerBoard<Int>()
        let (greedy, other) = (FakeConnection(), FakeConnection())
        for request in 0..<Int64(AnswerBoard<Int>.perConnectionLimit) {
            try board.wait(for: request, .init(connection: ObjectIdentifier(greedy)) { _ in })
        }
        #expect(throws: PhotoLibError.tooManyWaits(limit: 16)) {
            try board.wait(for: 99, .init(connection: ObjectIdentifier(greedy)) { _ in })
        }
        try board.wait(for: 99, .init(connection: ObjectIdentifier(other)) { _ in })
        board.forget(connection: ObjectIdentifier(greedy))
        #expect(!board.isWaiting(ObjectIdentifier(greedy)))
        #expect(board.waiting(for: 0) == 0)
        #expect(board.waiting(for: 99) == 1)
        try board.wait(for: 100, .init(connection: ObjectIdentifier(greedy)) { _ in })
    }

    @Test("a pick is claimed once, and a closed connection's picks are handed back to withdraw")
    func pickBoard() {
        let board = PickBoard<FakePickWaiter>()
        let (a, b) = (FakeConnection(), FakeConnection())
        board.register(1, FakePickWaiter(connection: ObjectIdentifier(a), name: "a1"))
        board.register(2, FakePickWaiter(connection: ObjectIdentifier(a), name: "a2"))
        board.register(3, FakePickWaiter(connection: ObjectIdentifier(b), name: "b3"))
        #expect(board.claim(1)?.name == "a1")
        #expect(board.claim(1) == nil)
        #expect(board.isWaiting(for: 2))
        #expect(board.forget(connection: ObjectIdentifier(a)) == [2])
        #expect(!board.isWaiting(ObjectIdentifier(a)))
        #expect(board.isWaiting(ObjectIdentifier(b)))
    }

    @Test("connections count against the total and per uid; the owner's and root's are not limited per uid")
    func connectionLimits() {
        var settings = ConnectionLimitSettings()
        settings.maxConnections = 3
        settings.maxConnectionsPerUID = 2
        let limits = ConnectionLimits(settings)
        #expect(limits.admit(uid: 1001, limitedPerUID: true) == nil)
        #expect(limits.admit(uid: 1001, limitedPerUID: true) == nil)
        #expect(limits.admit(uid: 1001, limitedPerUID: true) == .tooManyConnections(limit: 2, perUID: true))
        #expect(limits.admit(uid: 1000, limitedPerUID: false) == nil)
        #expect(limits.admit(uid: 1000, limitedPerUID: false) == .tooManyConnections(limit: 3, perUID: false))
        limits.release(uid: 1001)
        #expect(limits.admit(uid: 1001, limitedPerUID: true) == nil)
    }

    @Test("a listing is kept for its filter while the store's generation holds, and dropped by any write")
    func listingCache() {
        let cache = ListingCache()
        let pageFilter = ListingFilter(mediaType: .image)
        let keys = ListingSortKeys(capacity: 0)
        cache.keep(.init(generation: 4, filter: pageFilter, rowIDs: [], keys: keys))
        #expect(cache.keys(for: pageFilter, generation: 4) != nil)
        #expect(cache.keys(for: ListingFilter(), generation: 4) == nil)
        #expect(cache.keys(for: pageFilter, generation: 5) == nil)
        #expect(cache.keys(for: pageFilter, generation: 4) == nil, "a stale entry is let go, not kept for an older generation")
    }

    @Test("a status's counts are read once while the store's generation holds, and read again after any write")
    func statusCounts() {
        let kept = StatusCounts()
        var reads = 0
        let read = {
            reads += 1
            return StatusCounts.Counts(assets: 100 + reads, albums: 2, apps: 1)
        }
        #expect(kept.counts(at: 7, read: read).assets == 101)
        #expect(kept.counts(at: 7, read: read).assets == 101, "no write since: not counted again")
        #expect(kept.counts(at: 8, read: read).assets == 102, "a write since: counted again")
        #expect(kept.counts(at: 7, read: read).assets == 103, "only the generation read with them is trusted")
        #expect(reads == 3)
    }

    @Test("status says degraded once ready with a failed watch or an unreadable path, and the phase otherwise")
    func reportedState() {
        var snapshot = StatusBoard.Snapshot()
        #expect(snapshot.reportedState == "starting")
        snapshot.failedWatches = 1
        snapshot.phase = .scanning
        #expect(snapshot.reportedState == "scanning")
        snapshot.phase = .ready
        #expect(snapshot.reportedState == "degraded")
        snapshot.failedWatches = 0
        #expect(snapshot.reportedState == "ready")
        snapshot.unreadable = [RelativePath(escaped: "Private")!]
        #expect(snapshot.reportedState == "degraded")
        let board = StatusBoard()
        board.update { $0.scannedFiles += 3 }
        #expect(board.snapshot.scannedFiles == 3)
    }

    @Test("the expiry alarm rings at its time by the clock given, or at once for a wake that came first", .timeLimit(.minutes(10)))
    func expiryAlarm() async {
        let clock = SetClock(seconds: 1_000)
        let alarm = ExpiryAlarm(clock: clock)
        alarm.wake()
        await alarm.wait(until: nil)  // the earlier wake is kept for this wait
        // Already past, and due now, by the set clock: each returns without a wake (the time limit catches one that would not).
        await alarm.wait(until: 999)
        await alarm.wait(until: 1_000)
        let waiting = Task { await alarm.wait(until: nil) }
        alarm.wake()
        await waiting.value
    }
}

@Suite("Requests waiting for replies on one connection")
struct RequestBacklogTests {
    @Test("bytes waiting are bounded by twice the line limit, never under 4 MiB; answering frees them")
    func bytes() {
        let small = RequestBacklog(lineLimit: 1 << 20)
        #expect(small.maximumBytes == 4 << 20)
        let large = RequestBacklog(lineLimit: 16 << 20)
        #expect(large.maximumBytes == 32 << 20)
        #expect(small.admit(3 << 20))
        #expect(!small.admit(2 << 20), "5 MiB waiting: over")
        small.answered(3 << 20)
        small.answered(2 << 20)
        #expect(small.admit(4 << 20))
        #expect(small.refusal.message.contains("64 requests or 4 MiB"))
    }

    @Test("an idle connection closes unless it listens; an unfinished line closes it even then")
    func idle() {
        #expect(RequestBacklog.closesWhenIdle(listening: false, unfinishedLine: false))
        #expect(!RequestBacklog.closesWhenIdle(listening: true, unfinishedLine: false))
        #expect(RequestBacklog.closesWhenIdle(listening: true, unfinishedLine: true))
    }

    @Test("a request framed and not yet answered keeps its connection from being idle, until its reply")
    func inFlight() {
        let backlog = RequestBacklog(lineLimit: 1 << 20)
        #expect(!backlog.hasRequestsInFlight)
        #expect(backlog.admit(40))
        #expect(backlog.admit(12))
        #expect(backlog.hasRequestsInFlight)
        backlog.answered(40)
        #expect(backlog.hasRequestsInFlight, "one of the two is still being worked on")
        backlog.answered(12)
        #expect(!backlog.hasRequestsInFlight)
    }
}
