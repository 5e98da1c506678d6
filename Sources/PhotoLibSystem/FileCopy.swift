import CSystemShims
import Glibc
public import PhotoLibCore

/// Reading a file someone else made, and copying it into one of ours.
///
/// Used for an app's inbox: the app owns what it writes there, so the
/// daemon opens it without following symlinks or blocking on a FIFO, and
/// copies its bytes into a new file of the library owner's. The copy is a
/// reflink where the filesystem can (no data written, later writes to the
/// app's file do not reach it), `copy_file_range` where it cannot, and plain
/// reads and writes across filesystems that refuse both.
public enum FileCopy {
    /// How a copy was made (reported in logs and the benchmark).
    public enum Method: String, Sendable {
        case reflink, copyFileRange, readWrite
    }

    /// Opens an entry for reading with `O_NOFOLLOW | O_NONBLOCK | O_NOCTTY`.
    public static func openUntrusted(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        let fd = try Directory.withName(name) { n throws(SystemCallError) in
            try systemCall("openat") { photolibd_open_untrusted(dir.rawValue, n) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Whether some process has `name` open for writing now (a read lease cannot be taken on it):
    /// a file an app is still writing. Nil when that cannot be told (it went, it is another uid's,
    /// or its filesystem has no leases).
    public static func isOpenForWriting(_ name: FileName, in dir: FileDescriptor) -> Bool? {
        guard let fd = try? openUntrusted(name, in: dir) else { return nil }
        defer { fd.close() }
        do {
            _ = try systemCall("fcntl(F_SETLEASE)") { photolibd_try_read_lease(fd.rawValue) }
            return false
        } catch {
            return error.errno == EAGAIN ? true : nil
        }
    }

    /// Opens a file of the daemon's own for reading and writing, never following a symlink.
    public static func openReadWrite(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        let fd = try Directory.withName(name) { n throws(SystemCallError) in
            try systemCall("openat") { openat(dir.rawValue, n, O_RDWR | O_NOFOLLOW | O_CLOEXEC) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Creates a new file to copy into, readable and writable (its header is read back), never following a symlink.
    public static func createTarget(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        let fd = try Directory.withName(name) { n throws(SystemCallError) in
            try systemCall("openat") { openat(dir.rawValue, n, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600)) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Moves a descriptor's read position back to the start (one handed over may be anywhere).
    public static func rewind(_ fd: FileDescriptor) throws(SystemCallError) {
        _ = try systemCall("lseek") { lseek(fd.rawValue, 0, SEEK_SET) }
    }

    /// Copies all of `source` into `target` (empty, just created), at most `limit`
    /// bytes plus one, so a file that grew past a limit is seen to have.
    /// Returns the bytes copied and how.
    public static func copy(from source: FileDescriptor, to target: FileDescriptor, limit: Int64) throws(SystemCallError) -> (bytes: Int64, method: Method) {
        do {
            _ = try systemCall("ioctl(FICLONE)") { photolibd_ficlone(target.rawValue, source.rawValue) }
            let size = try Directory.status(of: target).size
            if size <= limit { return (size, .reflink) }
            _ = try systemCall("ftruncate") { ftruncate(target.rawValue, 0) }  // over the limit: the caller refuses it
            return (size, .reflink)
        } catch where [EOPNOTSUPP, EXDEV, EINVAL, ENOTTY, EBADF, EPERM, ETXTBSY].contains(error.errno) {
            // No reflinks here: copy the bytes.
        }
        var copied: Int64 = 0
        var method = Method.copyFileRange
        while copied <= limit {
            let want = Int(min(Int64(1 << 30), limit + 1 - copied))
            let done: Int
            do {
                done = try systemCall("copy_file_range") { photolibd_copy_file_range(source.rawValue, target.rawValue, want) }
            } catch where copied == 0 && [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF].contains(error.errno) {
                method = .readWrite
                return (try readWriteCopy(from: source, to: target, limit: limit), method)
            }
            if done == 0 { break }
            copied += Int64(done)
        }
        return (copied, method)
    }

    private static func readWriteCopy(from source: FileDescriptor, to target: FileDescriptor, limit: Int64) throws(SystemCallError) -> Int64 {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while copied <= limit {
            let count = try systemCall("read") { Glibc.read(source.rawValue, buffer, size) }
            if count == 0 { break }
            var written = 0
            while written < count {
                written += try systemCall("write") { Glibc.write(target.rawValue, buffer + written, count - written) }
            }
            copied += Int64(count)
        }
        return copied
    }

    /// The first `count` bytes of a file (fewer when it is shorter).
    public static func header(of fd: FileDescriptor, count: Int) throws(SystemCallError) -> [UInt8] {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        let read = try systemCall("pread") { pread(fd.rawValue, buffer, count, 0) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: read))
    }

    /// `fsync`: the file's data and metadata are on disk when this returns.
    public static func sync(_ fd: FileDescriptor) throws(SystemCallError) {
        _ = try systemCall("fsync") { fsync(fd.rawValue) }
    }

    /// Sets a file's permission bits (on a file of the daemon's own).
    public static func setMode(_ fd: FileDescriptor, _ mode: UInt32) throws(SystemCallError) {
        _ = try systemCall("fchmod") { fchmod(fd.rawValue, mode_t(mode)) }
    }
}

extension Directory {
    /// Renames without ever replacing: `renameat2(RENAME_NOREPLACE)`, which
    /// fails with `EEXIST` when `target` exists.
    public static func renameNoReplace(
        _ source: FileName, in sourceDir: FileDescriptor, to target: FileName, in targetDir: FileDescriptor
    ) throws(SystemCallError) {
        _ = try withName(source) { s throws(SystemCallError) in
            try withName(target) { t throws(SystemCallError) in
                try systemCall("renameat2") { photolibd_renameat2(sourceDir.rawValue, s, targetDir.rawValue, t, 1) }
            }
        }
    }
}
