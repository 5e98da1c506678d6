import CSystemShims
import Glibc

/// Runs a closure on a detached pthread of its own (Foundation's `Thread` is not
/// used in this module): for the few waits that must block a whole thread, so
/// they hold none of Swift's concurrency threads.
public enum DetachedThread {
    /// Starts `body` on a new thread, named `name` in `ps -L` and `top -H` (the kernel keeps 15 bytes).
    /// Fails only when the system cannot make one (EAGAIN: out of threads or memory), which the caller reports as itself.
    public static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let made = NewThread.make {
            // A thread without its name is still the same thread: a failure here is not worth stopping for.
            if let name { _ = photolibd_name_thread(name) }
            body()
        }
        pthread_detach(try made.get())
    }
}
