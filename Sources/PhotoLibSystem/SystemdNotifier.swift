import CSystemShims
import Glibc

/// Tells systemd how the service is doing (`sd_notify`), when run under it.
///
/// Outside systemd (`NOTIFY_SOCKET` unset) every call does nothing. The
/// protocol is one datagram of `KEY=value` lines to `$NOTIFY_SOCKET`.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?
    /// How often systemd expects `WATCHDOG=1`, when it asked for it (`WATCHDOG_USEC`, for this pid).
    public let watchdogInterval: Duration?

    public init() {
        socketPath = ProcessIdentity.environment("NOTIFY_SOCKET")
        if let usec = ProcessIdentity.environment("WATCHDOG_USEC").flatMap(Int64.init), usec > 0,
           ProcessIdentity.environment("WATCHDOG_PID").map({ Int32($0) == getpid() }) ?? true {
            watchdogInterval = .microseconds(usec)
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `KEY=value` lines. The corresponding C function is `sd_notify`.
    public func notify(_ fields: [String: String]) {
        guard let socketPath else { return }
        let message = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        _ = message.withCString { photolibd_send_datagram(socketPath, $0, strlen($0)) }
    }
}

/// Listening sockets passed by systemd socket activation (`LISTEN_FDS`, from descriptor 3).
public enum SocketActivation {
    /// The first passed descriptor, when this process was socket-activated.
    ///
    /// Honours `LISTEN_PID` (the variables are for this process only) and
    /// unsets the variables so children do not inherit them.
    public static func passedListener() -> Int32? {
        guard let count = ProcessIdentity.environment("LISTEN_FDS").flatMap(Int.init), count >= 1 else { return nil }
        if let pid = ProcessIdentity.environment("LISTEN_PID").flatMap(Int32.init), pid != getpid() { return nil }
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
