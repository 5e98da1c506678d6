import Foundation
import Glibc
@testable import PhotoLibStore
import Synchronization
import Testing

/// The checkpointer's failures reach the log once per spell, and it keeps trying.
@Suite("Checkpointer")
struct CheckpointerTests {
    @Test("rounds that fail are told once and retried; the round that works after them is told too")
    func failingRounds() async throws {
        let directory = NSTemporaryDirectory() + "photolibd-checkpointer-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        struct Busy: Error {}
        let rounds = Mutex(0)
        let (reports, continuation) = AsyncStream.makeStream(of: CheckpointReport.self)
        let checkpointer = try Checkpointer(path: directory + "/db.sqlite", interval: .milliseconds(5), truncate: {}, passive: {
            // Five rounds fail, then every round works.
            let round = rounds.withLock { count in
                count += 1
                return count
            }
            if round <= 5 { throw Busy() }
            return (frames: 0, complete: true)
        }, report: { continuation.yield($0) })
        defer { checkpointer.stop() }
        var told: [CheckpointReport] = []
        for await report in reports {
            told.append(report)
            if case .recovered = report { break }
        }
        #expect(told == [.failing("Busy()"), .recovered(failedRounds: 5)])
    }
}
