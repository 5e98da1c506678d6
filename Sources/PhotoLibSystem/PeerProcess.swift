import CSystemShims
import Glibc
public import PhotoLibCore

/// Reads, for a connected Unix socket, whether the process at the other end
/// runs in a Flatpak sandbox: the facts `PeerAdmission` decides on.
///
/// As xdg-desktop-portal does: the process is pinned by a pidfd (the kernel's
/// `SO_PEERPIDFD` where it has it, else `pidfd_open` of `SO_PEERCRED`'s pid),
/// its root is opened through `/proc/PID/root`, and `/.flatpak-info` is read
/// there: absent means the host, anything else that goes wrong means "cannot
/// tell". The pidfd is asked once more at the end: if the process exited
/// meanwhile, its pid may name another process now, and nothing read counts.
public enum PeerProcess {
    /// The most of a `.flatpak-info` read: Flatpak's are a few hundred bytes.
    static let maximumInfoSize = 64 << 10

    /// - Parameters:
    ///   - peerPIDFD: the socket's `SO_PEERPIDFD` (taken over: closed here), or nil
    ///     where the kernel has none; then `pidfd_open(pid)` pins the process.
    ///   - pid: the peer's pid from `SO_PEERCRED`.
    public static func sandbox(peerPIDFD: Int32?, pid credentialPID: Int32) -> SandboxIdentity {
        let pidfd: FileDescriptor
        var pid = credentialPID
        if let peerPIDFD, peerPIDFD >= 0 {
            pidfd = FileDescriptor(rawValue: peerPIDFD)
            if let pinned = pidOf(pidfd) { pid = pinned }
        } else {
            do {
                pidfd = FileDescriptor(rawValue: try systemCall("pidfd_open") { photolibd_pidfd_open(credentialPID) })
            } catch {
                return .unknown(reason: "\(error)")
            }
        }
        defer { pidfd.close() }
        guard pid > 0 else { return .unknown(reason: "the process has exited") }
        let found = readSandbox(pid: pid)
        do {
            _ = try systemCall("pidfd_send_signal") { photolibd_pidfd_alive(pidfd.rawValue) }
        } catch {
            return .unknown(reason: "the process exited while it was being identified")
        }
        return found
    }

    private static func readSandbox(pid: Int32) -> SandboxIdentity {
        let root: FileDescriptor
        do {
            root = FileDescriptor(rawValue: try systemCall("open") {
                open("/proc/\(pid)/root", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY)
            })
        } catch where error.errno == EACCES || error.errno == EPERM {
            return sandboxFromOutside(pid: pid, rootFailure: error)
        } catch {
            return .unknown(reason: "cannot open /proc/\(pid)/root: \(error)")
        }
        defer { root.close() }
        let info: FileDescriptor
        do {
            info = FileDescriptor(rawValue: try systemCall("openat") {
                openat(root.rawValue, ".flatpak-info", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            })
        } catch where error.errno == ENOENT {
            return .host
        } catch {
            return .unknown(reason: "cannot open its /.flatpak-info: \(error)")
        }
        defer { info.close() }
        do {
            guard try Directory.status(of: info).kind == .regular else {
                return .unknown(reason: "its /.flatpak-info is not a regular file")
            }
            let contents = try readAll(info)
            guard let appID = FlatpakInfo.appID(in: contents) else {
                return .unknown(reason: "its /.flatpak-info names no application")
            }
            return .flatpak(appID: appID)
        } catch {
            return .unknown(reason: "cannot read its /.flatpak-info: \(error)")
        }
    }

    /// When the kernel refuses `/proc/PID/root` (the daemon runs in a user
    /// namespace of its own, as under the shipped user unit), what can still be
    /// read: a process in the daemon's own pid namespace is in no Flatpak
    /// sandbox (Flatpak always gives an app a pid namespace); one deeper is
    /// sandboxed, and the systemd scope Flatpak starts it in names the app.
    private static func sandboxFromOutside(pid: Int32, rootFailure: SystemCallError) -> SandboxIdentity {
        do {
            let own = ProcessFacts.pidNamespaceDepth(status: try readFile("/proc/self/status"))
            let peer = ProcessFacts.pidNamespaceDepth(status: try readFile("/proc/\(pid)/status"))
            guard let own, let peer else { return .unknown(reason: "its /proc/\(pid)/status has no NSpid line") }
            if peer <= own { return .host }
            if let appID = ProcessFacts.flatpakAppID(cgroup: try readFile("/proc/\(pid)/cgroup")) {
                return .flatpak(appID: appID)
            }
            return .unknown(reason: "it runs in a pid namespace of its own, and its /.flatpak-info is out of reach (\(rootFailure))")
        } catch {
            return .unknown(reason: "cannot read /proc/\(pid): \(error)")
        }
    }

    /// The pid a pidfd refers to (its fdinfo's `Pid:`), nil when unreadable; -1 once the process exited.
    private static func pidOf(_ pidfd: FileDescriptor) -> Int32? {
        let fdinfo: [UInt8]
        do {
            fdinfo = try readFile("/proc/self/fdinfo/\(pidfd.rawValue)")
        } catch {
            return nil  // then SO_PEERCRED's pid stands, and the final liveness check still guards it
        }
        for line in String(decoding: fdinfo, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Pid:") {
            return Int32(line.dropFirst(4).trimmingPrefix(while: { $0 == " " || $0 == "\t" }))
        }
        return nil
    }

    private static func readFile(_ path: String) throws(SystemCallError) -> [UInt8] {
        let fd = FileDescriptor(rawValue: try systemCall("open") { open(path, O_RDONLY | O_CLOEXEC) })
        defer { fd.close() }
        return try readAll(fd)
    }

    private static func readAll(_ fd: FileDescriptor) throws(SystemCallError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < maximumInfoSize {
            let count = try systemCall("read") {
                chunk.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            out += chunk[..<count]
        }
        return out
    }
}
