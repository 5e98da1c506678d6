import Glibc

/// Small files only their owner may read: the page's one-time sign-in secrets,
/// where its server listens, its thumbnails cache.
///
/// Every call goes through `systemCall` (EINTR retried, errno kept); paths are
/// opened with `O_NOFOLLOW`, so a symlink planted in their place is refused.
public enum PrivateFiles {
    /// Makes `path` (and missing parents) as a directory of `mode`, and checks
    /// it is a real directory owned by this process's uid and closed to others
    /// (`mode`'s group and other bits); throws `EPERM` when it is not.
    public static func makeDirectory(_ path: String, mode: UInt32 = 0o700) throws(SystemCallError) {
        _ = try ProcessIdentity.makeDirectories(path, mode: mode)
        var st = stat()
        _ = try systemCall("lstat \(path)") { lstat(path, &st) }
        guard st.st_mode & S_IFMT == S_IFDIR, st.st_uid == geteuid(), st.st_mode & 0o077 & ~mode_t(mode) == 0 else {
            throw SystemCallError("check \(path)", errno: EPERM)
        }
    }

    /// Writes `bytes` to a new file at `path` (replacing one that is there) with `mode`,
    /// owned by `owner` when given (root writing into a user's directory).
    public static func write(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o600, owner: (uid: UInt32, gid: UInt32)? = nil)
        throws(SystemCallError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = try systemCall("open \(temporary)") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }
        defer { _ = close(fd) }
        var written = 0
        while written < bytes.count {
            let offset = written
            written += try systemCall("write \(temporary)") {
                bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
        }
        if let owner { _ = try systemCall("fchown \(temporary)") { fchown(fd, owner.uid, owner.gid) } }
        _ = try systemCall("fchmod \(temporary)") { fchmod(fd, mode_t(mode)) }
        _ = try systemCall("rename \(temporary)") { rename(temporary, path) }
    }

    /// The bytes of the regular file at `path`, or nil when there is none.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(SystemCallError) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try systemCall("open \(path)") { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        } catch {
            if error.isNotFound { return nil }
            throw error
        }
        defer { _ = close(fd) }
        var st = stat()
        _ = try systemCall("fstat \(path)") { fstat(fd, &st) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw SystemCallError("read \(path)", errno: EINVAL) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while out.count < limit {
            let count = try systemCall("read \(path)") { buffer.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress, raw.count) } }
            if count == 0 { break }
            out += buffer[0..<count]
        }
        return out
    }

    /// Removes the file at `path`; true when it was there.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        (try? systemCall("unlink \(path)") { unlink(path) }) != nil
    }

    /// The owner uid and gid of the directory at `path`.
    public static func owner(of path: String) throws(SystemCallError) -> (uid: UInt32, gid: UInt32) {
        var st = stat()
        _ = try systemCall("stat \(path)") { stat(path, &st) }
        return (st.st_uid, st.st_gid)
    }
}
