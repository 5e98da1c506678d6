/// The one rule for a Unix socket's path: it must fit `sockaddr_un.sun_path`.
///
/// The kernel keeps 108 bytes for the path, its terminating NUL included, so a
/// longer path cannot be bound or connected to at all. The daemon checks its
/// socket, and the longest endpoint it will bind beside it, before it starts;
/// photolibctl checks before it connects. The person then reads what is wrong
/// ("too long, at most 107 bytes") instead of an errno from deep inside.
public enum SocketPathRule {
    /// The most bytes a socket path may have (108 less the NUL).
    public static let maximumBytes = 107

    /// Throws `socketPathTooLong` when `path` cannot name a Unix socket.
    public static func check(_ path: String) throws(PhotoLibError) {
        let bytes = path.utf8.count
        guard bytes <= maximumBytes else { throw .socketPathTooLong(path: path, bytes: bytes) }
    }

    /// Checks the daemon's main socket and the path every app's endpoint will
    /// have in `endpointsDirectory` (all view names are the same length).
    public static func checkDaemon(socket: String, endpointsDirectory: String) throws(PhotoLibError) {
        try check(socket)
        let endpoint = endpointsDirectory + "/view-" + String(repeating: "x", count: AssetID.length)
        let bytes = endpoint.utf8.count
        guard bytes <= maximumBytes else { throw .socketPathTooLong(path: endpoint, bytes: bytes, endpoint: true) }
    }
}
