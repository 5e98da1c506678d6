import CSystemShims
import Glibc

/// A child process this one talks to over a socket pair on the child's standard input and output.
///
/// The page server's image decoders run this way: whatever a hostile file does
/// to a decoder (a crash, a hang, all the memory it may have) happens in the
/// child, which the parent can kill and replace. A child whose parent dies
/// reads end of input and exits.
public final class HelperProcess: Sendable {
    public let pid: Int32
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
        pid = child
        channel = UnixStreamSocket(adopting: FileDescriptor(rawValue: ends[0]))
    }

    /// Stops the helper at once (SIGKILL), whatever it is doing.
    public func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the helper to end and reaps it: call after `kill()` or once its channel reads end of input.
    public func reap() throws(SystemCallError) -> Ending {
        var status: Int32 = 0
        _ = try systemCall("waitpid \(pid)") { waitpid(pid, &status, 0) }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal)
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
