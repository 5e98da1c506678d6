import CSystemShims
import Glibc

/// A process pinned by a pidfd: a signal sent through it reaches exactly that process, or fails
/// with `ESRCH` once it has exited, never another process that has since taken its number.
public final class ProcessHandle: Sendable {
    private let pidfd: FileDescriptor
    /// The number the process had when it was pinned (for messages; signal through the handle).
    public let pid: Int32

    /// Pins the process that has `pid` now. The caller must know that `pid` is that process at
    /// this instant (an unreaped child, or one checked through `isAlive` after this call).
    ///
    /// The corresponding C function is `pidfd_open`.
    public init(pid: Int32) throws(SystemCallError) {
        pidfd = FileDescriptor(rawValue: try systemCall("pidfd_open \(pid)") { photolibd_pidfd_open(pid) })
        self.pid = pid
    }

    deinit { pidfd.close() }

    /// True while the process has not exited.
    ///
    /// - Throws: `SystemCallError` for an answer other than alive or exited (`ESRCH`).
    public func isAlive() throws(SystemCallError) -> Bool {
        do {
            _ = try systemCall("pidfd_send_signal 0 to \(pid)") { photolibd_pidfd_alive(pidfd.rawValue) }
            return true
        } catch where error.errno == ESRCH {
            return false
        }
    }

    /// True once the process has exited, reaped or not (its pidfd is readable then; a zombie
    /// still takes a signal, so `isAlive` calls it alive).
    public func hasExited() throws(SystemCallError) -> Bool {
        var descriptor = pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)
        return try systemCall("poll the pidfd of \(pid)") { poll(&descriptor, 1, 0) } > 0
    }

    /// Sends `signal` to the process. The corresponding C function is `pidfd_send_signal`.
    ///
    /// - Throws: `SystemCallError` with `ESRCH` once the process has exited.
    public func signal(_ signal: Int32) throws(SystemCallError) {
        _ = try systemCall("pidfd_send_signal \(signal) to \(pid)") { photolibd_pidfd_signal(pidfd.rawValue, signal) }
    }

    /// The descriptor, to `poll` for the process's exit (it becomes readable then).
    public var descriptor: FileDescriptor { pidfd }
}
