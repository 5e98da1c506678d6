import Dispatch
import PhotoLibSystem
import Synchronization

/// The thread the engine's actor runs on, and only it.
///
/// An actor on Swift's default executor runs on the cooperative pool, which has one
/// thread per core: two on a small machine. Whatever the engine does that blocks (a
/// link flight waited for, a view reconciled on a slow disk) would then hold a thread
/// the connections, the page's requests and `status` need. On a thread of its own,
/// the engine's work waits only for the engine.
final class EngineThread: SerialExecutor {
    private struct Queue: ~Copyable {
        var jobs: [UnownedJob] = []
        var open = true
    }

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the thread; it ends at `close`. Fails only when the system cannot make a thread.
    init(name: String) throws(SystemCallError) {
        try DetachedThread.start(name: name) { [self] in run() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Ends the thread once the jobs already queued have run (the engine is gone: no more can come).
    func close() {
        queue.withLock { $0.open = false }
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            let (jobs, open) = queue.withLock { queue in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return (queue.jobs, queue.open)
            }
            for job in jobs { job.runSynchronously(on: asUnownedSerialExecutor()) }
            if !open { return }
        }
    }
}
