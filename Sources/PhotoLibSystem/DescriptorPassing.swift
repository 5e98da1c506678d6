import CSystemShims
import Glibc

/// Passing open files over a Unix stream socket (`SCM_RIGHTS`).
public enum DescriptorPassing {
    /// Sends `bytes` with `descriptors` attached (at most 253), never blocking.
    /// Returns how many bytes went; the descriptors went with the first of
    /// them. `EAGAIN` (thrown) means nothing was sent. The caller keeps its
    /// own descriptors: the peer receives duplicates.
    public static func send(_ bytes: ArraySlice<UInt8>, descriptors: [Int32], on socket: Int32) throws(SystemCallError) -> Int {
        try systemCall("sendmsg") {
            bytes.withUnsafeBytes { raw in
                descriptors.withUnsafeBufferPointer { fds in
                    photolibd_send_with_fds(socket, raw.baseAddress, raw.count, fds.baseAddress, Int32(fds.count))
                }
            }
        }
    }
}

extension DescriptorPassing {
    /// The descriptor this process holds for the socket `cookie` names
    /// (`SO_COOKIE`), for a socket whose descriptor a library keeps to itself.
    /// The number is valid while that socket stays open.
    public static func descriptor(ofSocket cookie: UInt64) throws(SystemCallError) -> Int32 {
        try systemCall("getsockopt(SO_COOKIE) over /proc/self/fd") { photolibd_find_socket(cookie) }
    }
}

extension UnixStreamSocket {
    /// What one `recvmsg` brought: bytes, and any descriptors passed with them.
    public struct Received {
        public var bytes: [UInt8]
        /// Owned by the caller: close them, or hand them on.
        public var descriptors: [FileDescriptor]
        /// True when the kernel dropped descriptors that did not fit (`MSG_CTRUNC`).
        public var truncated: Bool
    }

    /// Reads what is available, with the descriptors passed along (close-on-exec); empty bytes at end of stream.
    /// A plain `recv` would make the kernel close any descriptor sent with the bytes it reads.
    public func receive(maximum: Int = 65536) throws(SystemCallError) -> Received {
        var buffer = [UInt8](repeating: 0, count: maximum)
        var fds = [Int32](repeating: -1, count: Int(PHOTOLIBD_MAX_PASSED_FDS))
        var count: Int32 = 0
        var truncated: Int32 = 0
        let read = try systemCall("recvmsg") {
            buffer.withUnsafeMutableBytes { raw in
                fds.withUnsafeMutableBufferPointer { passed in
                    photolibd_recv_with_fds(descriptor.rawValue, raw.baseAddress, maximum, passed.baseAddress, Int32(passed.count),
                                            &count, &truncated)
                }
            }
        }
        return Received(bytes: Array(buffer[0..<read]), descriptors: fds[0..<Int(count)].map(FileDescriptor.init(rawValue:)),
                        truncated: truncated != 0)
    }
}

extension FileCopy {
    /// A private, read-only copy of `source` with no name: made in `directory`
    /// (the original's, so a reflink can share its blocks), or in `fallback`
    /// where that directory cannot hold one (not writable, no `O_TMPFILE`).
    /// It is gone when the last descriptor closes.
    public static func privateCopy(of source: FileDescriptor, in directory: FileDescriptor, fallback: FileDescriptor?) throws(SystemCallError) -> FileDescriptor {
        try sealed(try unnamedCopy(of: source, in: directory, fallback: fallback))
    }

    /// The same copy still writable, for a caller that changes it (takes metadata out) before
    /// `sealed` makes it the read-only one handed over.
    public static func unnamedCopy(of source: FileDescriptor, in directory: FileDescriptor, fallback: FileDescriptor?) throws(SystemCallError) -> FileDescriptor {
        let writable = try unnamedFile(in: directory, fallback: fallback)
        do {
            _ = try copy(from: source, to: writable, limit: Int64.max - 1)
        } catch {
            writable.close()
            throw error
        }
        return writable
    }

    /// An empty unnamed file, writable, in `directory` or else in `fallback` (as `privateCopy`).
    public static func unnamedFile(in directory: FileDescriptor, fallback: FileDescriptor?) throws(SystemCallError) -> FileDescriptor {
        do {
            return FileDescriptor(rawValue: try systemCall("openat(O_TMPFILE)") { photolibd_open_tmpfile(directory.rawValue) })
        } catch {
            guard let fallback, [EACCES, EPERM, EROFS, EOPNOTSUPP, EISDIR, ENOSPC, EDQUOT].contains(error.errno) else { throw error }
            return FileDescriptor(rawValue: try systemCall("openat(O_TMPFILE)") { photolibd_open_tmpfile(fallback.rawValue) })
        }
    }

    /// A writable unnamed copy made read-only for everyone (0400), as a new read-only descriptor
    /// starting at the beginning; `writable` is closed.
    public static func sealed(_ writable: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        defer { writable.close() }
        try setMode(writable, 0o400)
        return FileDescriptor(rawValue: try systemCall("open(/proc/self/fd)") { photolibd_reopen_read_only(writable.rawValue) })
    }
}
