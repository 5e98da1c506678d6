import Foundation

/// The one thread every child of the tests is started from, alive as long as the test process.
///
/// A sandbox started with `bwrap --die-with-parent` (`PR_SET_PDEATHSIG`) is killed when the
/// *thread* that spawned it ends, not the process. Swift's pool threads end after a few idle
/// seconds: a client spawned from one was measured SIGKILLed 6 to 10 s later, which in CI was an
/// app's file dialog closing on its own while its test waited for the browser.
public final class SpawningThread: @unchecked Sendable {
    public static let shared = SpawningThread()

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var waiting: [(work: () -> Void, done: DispatchSemaphore)] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "test spawner"
        thread.start()
    }

    /// Runs `body` on the lasting thread and returns what it returned; the caller blocks meanwhile
    /// (a posix_spawn, a moment).
    public func perform<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) var result: T?
            nonisolated(unsafe) let work = body
            let done = DispatchSemaphore(value: 0)
            condition.withLock {
                waiting.append((work: { result = work() }, done: done))
                condition.signal()
            }
            done.wait()
            return result!
        }
    }

    private func serve() {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            var (work, done): ((() -> Void)?, DispatchSemaphore) = waiting.removeFirst()
            condition.unlock()
            work?()
            // Let go of the caller's closure before it returns: it may not outlive `perform`.
            work = nil
            done.signal()
        }
    }
}
