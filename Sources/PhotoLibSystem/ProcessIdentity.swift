import CSystemShims
import Glibc

/// Who this process runs as, and user lookups for the command line.
public enum ProcessIdentity {
    public static var userID: UInt32 { getuid() }

    /// `$HOME`, else the password database's home of the real uid.
    public static var homeDirectory: String? {
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// Makes every file this process creates private to its owner, whatever umask it was started with.
    ///
    /// The database and its `-wal`/`-shm` files would otherwise be 0644 under
    /// the common umask 022, in a state directory that app uids may pass
    /// through. Modes that must be wider are set explicitly (the socket, the
    /// views root), and a view's sub-directories take theirs from its default
    /// ACL, which the umask does not touch. The corresponding C function is `umask`.
    public static func keepCreatedFilesPrivate() {
        umask(0o077)
    }

    /// The real uid's name from the password database. The corresponding C function is `getpwuid`.
    public static var userName: String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// The uid of a user name from the password database. The corresponding C function is `getpwnam`.
    public static func userID(named name: String) -> UInt32? {
        guard let entry = getpwnam(name) else { return nil }
        return entry.pointee.pw_uid
    }

    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// True when `path` names an existing directory (following symlinks: for configured paths only).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        // A path that cannot be looked at is no directory this process can use: callers say so by name.
        return (try? systemCall("stat \(path)") { stat(path, &st) }) != nil && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when stderr is journald's stream: `JOURNAL_STREAM` names its device
    /// and inode (`DEV:INO`). A child that inherited the variable but writes
    /// elsewhere does not match, as sd-daemon(3) recommends.
    public static var stderrIsJournal: Bool {
        guard let value = environment("JOURNAL_STREAM") else { return false }
        let parts = value.split(separator: ":")
        var st = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
              (try? systemCall("fstat stderr") { fstat(2, &st) }) != nil else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }

    /// Creates `path` and missing parents with `mode`; quiet when it exists.
    ///
    /// Returns the directories it created, outermost first: photolibd keeps
    /// those open to app uids that must pass through them, and no others.
    @discardableResult
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o700) throws(SystemCallError) -> [String] {
        var prefix = path.hasPrefix("/") ? "/" : ""
        var created: [String] = []
        for part in path.split(separator: "/") {
            prefix += part
            do {
                _ = try systemCall("mkdir \(prefix)") { mkdir(prefix, mode_t(mode)) }
                created.append(prefix)
            } catch where error.isExists {
                // There already: only the ones made here are reported.
            }
            prefix += "/"
        }
        return created
    }

    /// This process's id (`getpid(2)`, which cannot fail).
    public static var processID: Int32 { getpid() }

    /// Sets the permission bits of `path` (`chmod(2)`, which follows a symlink:
    /// the daemon's own directories, named in its configuration).
    public static func setMode(_ path: String, _ mode: UInt32) throws(SystemCallError) {
        _ = try systemCall("chmod \(path)") { chmod(path, mode_t(mode)) }
    }

    /// Hands memory freed after a large one-off job (the start-up walk) back to the kernel,
    /// so resident memory reflects what the daemon keeps, not what it once needed.
    public static func releaseFreeMemory() {
        _ = photolibd_release_free_memory()
    }

    /// Takes an exclusive lock on `path` (created if missing) for the life of the process.
    ///
    /// Returns false when another process holds it. The corresponding C function is `flock`.
    public static func lockExclusively(_ path: String) throws(SystemCallError) -> Bool {
        let fd = try systemCall("open \(path)") { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }  // the descriptor stays open: the lock lives until exit
        let code = errno
        close(fd)
        if code == EWOULDBLOCK { return false }
        throw SystemCallError("flock \(path)", errno: code)
    }

    /// Starts from an empty signal mask. A process inherits its parent's mask,
    /// and some parents (threads of a Foundation or Dispatch program, for
    /// example) block SIGTERM: inherited, it would make `kill` do nothing.
    /// Call first thing in `main`, before any thread starts.
    public static func unblockSignals() {
        _ = photolibd_unblock_all_signals()
    }

    /// Raises the soft open-file limit to the hard one: each client connection
    /// is a descriptor, and the default soft limit (1024) is below the
    /// documented connection limit. Returns the new soft limit.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard (try? systemCall("getrlimit RLIMIT_NOFILE") { getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }) != nil else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            // Refused (a sandbox's seccomp, say): the old limit stands, and is what is returned.
            if (try? systemCall("setrlimit RLIMIT_NOFILE") { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) }) != nil { limit = raised }
        }
        return Int(limit.rlim_cur)
    }

    /// The canonical absolute form of an existing path. The corresponding C function is `realpath`.
    public static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
