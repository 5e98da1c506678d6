import CSystemShims
import Glibc

/// A blocking, connected Unix stream socket, for clients.
public final class UnixStreamSocket: @unchecked Sendable {
    // @unchecked: the descriptor is immutable; reads and writes on a stream
    // socket from different threads are safe at the kernel level, and each
    // client uses one reader thread and serialised writers.
    public let descriptor: FileDescriptor

    /// Connects to `path`. The corresponding C functions are `socket` and `connect`.
    public init(connectingTo path: String) throws(SystemCallError) {
        let fd = try systemCall("connect") { photolibd_unix_connect(path) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Takes `descriptor`, a connected stream socket, to close it when done.
    public init(adopting descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit { descriptor.close() }

    /// Writes every byte, retrying short writes.
    public func write(_ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = try systemCall("send") {
                bytes.withUnsafeBytes { buffer in
                    send(descriptor.rawValue, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            offset += written
        }
    }

    /// Reads what is available (at most `maximum` bytes); empty at end of stream.
    public func read(maximum: Int = 65536) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = try systemCall("recv") {
            buffer.withUnsafeMutableBytes { raw in recv(descriptor.rawValue, raw.baseAddress!, maximum, 0) }
        }
        return Array(buffer[0..<count])
    }

    /// Makes reads fail with `EAGAIN` after `seconds` without data (`SO_RCVTIMEO`).
    public func setReceiveTimeout(seconds: Int) throws(SystemCallError) {
        try setReceiveTimeout(seconds: Double(seconds))
    }

    /// Makes reads fail with `EAGAIN` after `seconds` without data (`SO_RCVTIMEO`).
    public func setReceiveTimeout(seconds: Double) throws(SystemCallError) {
        let whole = Int(seconds)
        var timeout = timeval(tv_sec: whole, tv_usec: Int((seconds - Double(whole)) * 1_000_000))
        _ = try systemCall("setsockopt SO_RCVTIMEO") {
            setsockopt(descriptor.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Ends both directions: a read blocked on another thread returns at once, and the server sees the connection close.
    public func shutdownBoth() {
        _ = Glibc.shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
    }

    /// Half-closes the sending side, so the server sees end of input.
    public func shutdownWrite() {
        _ = Glibc.shutdown(descriptor.rawValue, Int32(SHUT_WR))
    }
}

/// The credentials of a connected Unix socket's peer, from the kernel (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Equatable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// The corresponding C function is `getsockopt(SO_PEERCRED)`.
    public static func of(_ socket: FileDescriptor) throws(SystemCallError) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        _ = try systemCall("getsockopt(SO_PEERCRED)") { photolibd_peer_credentials(socket.rawValue, &pid, &uid, &gid) }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }
}

/// The socket options the daemon asks of its peers' connections through SwiftNIO, by their kernel numbers.
public enum PeerSocketOption {
    /// `SO_PEERCRED`: the peer's pid, uid and gid as of connect.
    public static let credentials = Int32(SO_PEERCRED)
    /// `SO_PEERPIDFD` (Linux 6.5): a pidfd of the peer. Bookworm's glibc headers predate it, so its number is spelled here.
    public static let pidfd: Int32 = 77
    /// `SO_COOKIE`: a number unique to the socket while the system runs (`DescriptorPassing.descriptor(ofSocket:)`).
    public static let cookie = Int32(SO_COOKIE)
}
