import Foundation
import Glibc

/// Teardown that must wait (a daemon's stop, a child's reaping, a test user's removal), done on a
/// thread of its own instead of where it was asked for.
///
/// A `deinit` runs wherever the last reference went, often a thread of Swift's cooperative pool
/// (one per core): a wait there holds every other test's work. Each piece of teardown is handed
/// here and runs in order on the teardown thread; the test process waits for what is still
/// queued when it exits (at most `exitDeadline` seconds, naming what did not finish), so no
/// daemon or test user outlives the run.
public final class Teardown: @unchecked Sendable {
    static let shared = Teardown()
    /// How long the test process waits at exit for teardown still queued or running.
    static let exitDeadline: Double = 120

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var queue: [(what: String, work: @Sendable () -> Void)] = []
    /// Guarded by `condition`: what runs now, if anything.
    private var running: String?

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "test teardown"
        thread.start()
        atexit { Teardown.shared.drain() }
    }

    /// Queues `work`, described by `what` for the message when it is still unfinished at exit.
    public static func later(_ what: String, _ work: @escaping @Sendable () -> Void) {
        shared.condition.withLock {
            shared.queue.append((what, work))
            shared.condition.broadcast()
        }
    }

    private func serve() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let (what, work) = queue.removeFirst()
            running = what
            condition.unlock()
            work()
            condition.withLock {
                running = nil
                condition.broadcast()
            }
        }
    }

    /// Waits, at exit, until nothing is queued or running, or the deadline passes.
    private func drain() {
        let deadline = Date().addingTimeInterval(Self.exitDeadline)
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || running != nil {
            guard condition.wait(until: deadline) else {
                let left = ([running].compactMap { $0 } + queue.map(\.what)).joined(separator: "; ")
                FileHandle.standardError.write(Data("teardown still unfinished \(Int(Self.exitDeadline)) s after the tests ended: \(left)\n".utf8))
                return
            }
        }
    }
}
