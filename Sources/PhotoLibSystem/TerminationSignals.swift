import CSystemShims
import Glibc

/// SIGTERM and SIGINT, caught from the first line of `main` and waited for on a thread of their own.
///
/// A Dispatch signal source leaves a window: it sets `SIG_IGN` at once but
/// registers its signalfd later, on Dispatch's manager queue, and a signal sent
/// in between is discarded. photolibd once ignored a SIGTERM sent just as it
/// became ready. Blocking the signals and `sigwait`ing is no cure under an
/// async `main` either: Dispatch parks the main thread in `sigsuspend` with an
/// empty mask, where a blocked-elsewhere SIGTERM still kills. A plain handler,
/// installed before anything else runs, works on whichever thread takes the
/// signal: it records it and writes to an eventfd, both async-signal-safe.
public enum TerminationSignals {
    nonisolated(unsafe) private static var descriptor: Int32 = -1

    /// Clears the inherited signal mask (launchers such as
    /// systemd-socket-activate block SIGTERM before exec) and installs the
    /// handler. Call first thing in `main`; only a signal sent before it
    /// (while the runtime loads) still stops the process the default way.
    public static func catchThem() throws(SystemCallError) {
        _ = photolibd_unblock_all_signals()
        descriptor = try systemCall("sigaction SIGTERM SIGINT") { photolibd_catch_termination_signals() }
    }

    /// The next SIGTERM or SIGINT (a signal already caught counts), waited for
    /// on a thread of its own so no thread of the cooperative pool is held.
    public static func next() async -> Int32 {
        let descriptor = self.descriptor
        precondition(descriptor >= 0, "TerminationSignals.catchThem() must run first")
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let wait: @Sendable () -> Void = {
                var count: UInt64 = 0
                // A blocking eventfd read fails only with EINTR, which systemCall retries.
                _ = try? systemCall("read termination eventfd") { read(descriptor, &count, MemoryLayout<UInt64>.size) }
                continuation.resume(returning: photolibd_caught_termination_signal())
            }
            do {
                try DetachedThread.start(wait)
            } catch {
                // No thread to spare: wait on one of the pool's; it is held, but the stop still comes.
                Task.detached(operation: wait)
            }
        }
    }
}
