import CSystemShims
import Glibc

/// A program started to outlive its starter: `photolibctl ui` starts the page server this way.
public enum DetachedProcess {
    /// Starts `executable` with `arguments` in a session of its own, output appended to `output`; its pid.
    public static func start(_ executable: String, _ arguments: [String], output: String) throws(SystemCallError) -> Int32 {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: Int32 = 0
        let result = photolibd_spawn_detached(executable, argv, output, &pid)
        guard result == 0 else { throw SystemCallError("posix_spawn \(executable)", errno: result) }
        return pid
    }

    /// Waits up to `seconds` for child `pid` to exit: its exit status (128 + the signal for one
    /// killed), or nil when it still runs then. A failed wait (not our child) is an error, not "still running".
    public static func waitForExit(_ pid: Int32, seconds: Double) throws(SystemCallError) -> Int32? {
        var status: Int32 = 0
        for _ in 0..<max(1, Int(seconds * 100)) {
            if try systemCall("waitpid", { waitpid(pid, &status, WNOHANG) }) == pid {
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            usleep(10_000)
        }
        return nil
    }

    /// True while process `pid` runs. A zombie does not: a detached process whose starter
    /// is gone waits for its new parent to reap it, and some (a container's init) never do.
    public static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || Glibc.errno == EPERM else { return false }
        guard let stat = (try? PrivateFiles.read("/proc/\(pid)/stat", limit: 4096)) ?? nil,
              let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return true }
        return stat[close + 2] != UInt8(ascii: "Z")
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port` (a server shutting
    /// down may still run, with its listening socket already closed).
    public static func loopbackAccepts(port: Int) -> Bool {
        guard let fd = try? systemCall("socket", { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }) else { return false }
        defer { _ = close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = try? systemCall("connect") {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        return connected != nil
    }

    /// The executable of this process, from /proc/self/exe.
    public static var ownExecutable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = (try? systemCall("readlink /proc/self/exe") { readlink("/proc/self/exe", &buffer, buffer.count - 1) }) ?? -1
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
