import CSystemShims
import Glibc

/// A child process this one talks to over a socket pair on the child's standard input and output.
///
/// The page server's image decoders run this way: whatever a hostile file does
/// to a decoder (a crash, a hang, all the memory it may have) happens in the
/// child, which the parent can kill and replace. A child whose parent dies
/// reads end of input and exits. It is pinned by a pidfd from its start: a kill after it was
/// reaped reaches no one, never a process that took its number.
public final class HelperProcess: Sendable {
    /// Its process ID when started (for logs; it is signalled and reaped through its pidfd).
    public let pid: Int32
    private let pidfd: FileDescriptor
    /// The parent's end of the pair.
    public let channel: UnixStreamSocket

    /// How a helper ended.
    public enum Ending: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case killed(signal: Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// Starts `executable` with `arguments`.
    public init(_ executable: String, _ arguments: [String]) throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        _ = try systemCall("socketpair") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: Int32 = 0
        // The child's end is CLOEXEC here; posix_spawn's dup2 onto 0 and 1 clears that flag for the copies.
        let result = photolibd_spawn_helper(executable, argv, ends[1], &child)
        _ = Glibc.close(ends[1])
        guard result == 0 else {
            _ = Glibc.close(ends[0])
            throw SystemCallError("posix_spawn \(executable)", errno: result)
        }
        // Unreaped, the child keeps its number: this pins exactly it.
        let pinned = photolibd_pidfd_open(child)
        guard pinned >= 0 else {
            let failure = errno
            _ = Glibc.kill(child, SIGKILL)  // still unreaped: the number is still its own
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            _ = Glibc.close(ends[0])
            throw SystemCallError("pidfd_open \(executable)", errno: failure)
        }
        pid = child
        pidfd = FileDescriptor(rawValue: pinned)
        channel = UnixStreamSocket(adopting: FileDescriptor(rawValue: ends[0]))
    }

    deinit { pidfd.close() }

    /// Stops the helper at once (SIGKILL), whatever it is doing; nothing once it has ended.
    public func kill() {
        _ = photolibd_pidfd_signal(pidfd.rawValue, SIGKILL)
    }

    /// Whether the helper ends within `seconds` (its pidfd becomes readable), without reaping it.
    public func exits(within seconds: Double) throws(SystemCallError) -> Bool {
        var descriptor = pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)
        return try systemCall("poll the pidfd of \(pid)") { poll(&descriptor, 1, Int32(max(0, seconds * 1000))) } > 0
    }

    /// Waits for the helper to end and reaps it: call after `kill()` or once its channel reads end of input.
    public func reap() throws(SystemCallError) -> Ending {
        var exited: Int32 = 0
        var status: Int32 = 0
        _ = try systemCall("waitid P_PIDFD \(pid)") { photolibd_pidfd_reap(pidfd.rawValue, 0, &exited, &status) }
        return exited != 0 ? .exited(status) : .killed(signal: status)
    }
}

/// Limits a process sets on itself before it takes on untrusted work.
public enum ResourceLimit {
    /// At most `bytes` of address space: a decoder asked for more fails its allocation instead of taking the machine's memory.
    public static func limitAddressSpace(_ bytes: UInt64) throws(SystemCallError) {
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        _ = try systemCall("setrlimit RLIMIT_AS") { setrlimit(Int32(RLIMIT_AS.rawValue), &limit) }
    }

    /// At most `seconds` of CPU: a one-shot helper that spins is killed by the kernel (SIGKILL past the hard limit),
    /// so the parent's wait for it always ends.
    public static func limitCPU(seconds: UInt64) throws(SystemCallError) {
        var limit = rlimit(rlim_cur: rlim_t(seconds), rlim_max: rlim_t(seconds + 5))
        _ = try systemCall("setrlimit RLIMIT_CPU") { setrlimit(Int32(RLIMIT_CPU.rawValue), &limit) }
    }
}
