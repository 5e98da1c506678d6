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

/// Listening sockets passed by systemd socket activation (`LISTEN_FDS`, from
/// descriptor 3, named by `LISTEN_FDNAMES`).
public enum SocketActivation {
    /// The prefix of an app endpoint's descriptor name
    /// (`FileDescriptorName=endpoint-%i` in photolibd-endpoint@.socket).
    public static let endpointPrefix = "endpoint-"

    /// What systemd passed: the main socket, and apps' endpoints by view name.
    public struct Passed: Sendable, Equatable {
        public var main: Int32?
        public var endpoints: [String: Int32]
    }

    /// Which passed descriptor is which, from `LISTEN_FDNAMES`: a name
    /// `endpoint-VIEW` is that view's endpoint; the first other one is the
    /// main socket (unnamed descriptors, as `systemd-socket-activate` passes, are main).
    public static func classify(count: Int, names: [String]) -> (main: Int?, endpoints: [String: Int]) {
        var main: Int?
        var endpoints: [String: Int] = [:]
        for index in 0..<count {
            let name = index < names.count ? names[index] : ""
            if name.hasPrefix(endpointPrefix), name.count > endpointPrefix.count {
                endpoints[String(name.dropFirst(endpointPrefix.count))] = index
            } else if main == nil {
                main = index
            }
        }
        return (main, endpoints)
    }

    /// Takes the passed descriptors, once: honours `LISTEN_PID` (the variables
    /// are for this process only) and unsets the variables so children do not
    /// inherit them. A descriptor that is neither main nor an endpoint is closed.
    public static func take() -> Passed {
        guard let count = ProcessIdentity.environment("LISTEN_FDS").flatMap(Int.init), count >= 1 else { return Passed(main: nil, endpoints: [:]) }
        if let pid = ProcessIdentity.environment("LISTEN_PID").flatMap(Int32.init), pid != getpid() { return Passed(main: nil, endpoints: [:]) }
        let names = ProcessIdentity.environment("LISTEN_FDNAMES").map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDNAMES")
        let (main, endpoints) = classify(count: count, names: names)
        for index in 0..<count {
            // A descriptor systemd passed that cannot be marked close-on-exec is left as it is: the
            // daemon starts no program that could inherit it (photolibctl ui starts with closefrom).
            _ = try? systemCall("fcntl F_SETFD") { fcntl(Int32(3 + index), F_SETFD, FD_CLOEXEC) }
            if index != main, !endpoints.values.contains(index) { _ = close(Int32(3 + index)) }
        }
        return Passed(main: main.map { Int32(3 + $0) }, endpoints: endpoints.mapValues { Int32(3 + $0) })
    }
}
