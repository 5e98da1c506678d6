import CSystemShims
import Glibc

/// An eventfd that another thread signals to wake a thread blocked in `poll`.
///
/// The watcher thread sleeps until inotify has events; without this, a
/// `rescan` or a shutdown would wait for a poll timeout before it is noticed.
public final class Wakeup: Sendable {
    let descriptor: Int32

    /// - Throws: `SystemCallError` when no eventfd can be made (the descriptor limit).
    public init() throws(SystemCallError) {
        descriptor = try systemCall("eventfd") { photolibd_wakeup_eventfd() }
    }

    deinit { close(descriptor) }

    /// Wakes the waiting thread, now or at its next wait; signals before then merge into one.
    public func signal() {
        var one: UInt64 = 1
        // Fails only with EAGAIN, when the counter is already at its limit: a wakeup is pending anyway.
        _ = try? systemCall("write eventfd") { write(descriptor, &one, MemoryLayout<UInt64>.size) }
    }

    /// Clears the signal, so the next wait blocks again.
    func drain() {
        var count: UInt64 = 0
        // Fails only with EAGAIN, when nothing was signalled: cleared already.
        _ = try? systemCall("read eventfd") { read(descriptor, &count, MemoryLayout<UInt64>.size) }
    }
}
