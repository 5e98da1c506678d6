import PhotoLibSystem

/// Small uses of the system layer that read better named.
enum PhotoLibSystemBridge {
    static func connect(_ path: String) throws -> UnixStreamSocket {
        try UnixStreamSocket(connectingTo: path)
    }
}
