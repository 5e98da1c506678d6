import CSystemShims
import Glibc
public import PhotoLibCore

/// Operations relative to an open directory: the only way photolibd touches a tree.
///
/// Walking from directory descriptors with `O_NOFOLLOW` at every step means a
/// directory swapped for a symlink mid-walk is refused, never followed, and no
/// name is ever resolved twice.
public enum Directory {
    /// Opens an absolute or relative path as a directory (following symlinks in it: use it only for configured roots).
    public static func open(path: String) throws(SystemCallError) -> FileDescriptor {
        let fd = try systemCall("open") { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens one child directory without following a symlink.
    ///
    /// The corresponding C function is `openat` with `O_DIRECTORY | O_NOFOLLOW`.
    public static func open(_ name: FileName, in parent: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        let fd = try withName(name) { cName throws(SystemCallError) in
            try systemCall("openat") { openat(parent.rawValue, cName, photolibd_o_directory_nofollow()) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens a descendant directory one component at a time, never following a symlink.
    public static func open(_ path: RelativePath, in root: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        var current = try duplicate(root)
        for component in path.components {
            let next: FileDescriptor
            do {
                next = try open(component, in: current)
            } catch {
                current.close()
                throw error
            }
            current.close()
            current = next
        }
        return current
    }

    public static func duplicate(_ fd: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("fcntl") { fcntl(fd.rawValue, F_DUPFD_CLOEXEC, 0) })
    }

    /// A new open file description of the same directory (`openat(fd, ".")`). Unlike a
    /// duplicate, it has a read position of its own: another thread can list it while
    /// this one lists the original.
    public static func reopen(_ fd: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("openat .") { openat(fd.rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
    }

    /// Lists a directory with `getdents` (through `readdir`), without `.` and `..`.
    ///
    /// Names are bytes; nothing is decoded.
    public static func list(_ fd: FileDescriptor) throws(SystemCallError) -> [DirectoryEntry] {
        try list(fd, keeping: { _ in true })
    }

    /// The directories in a directory, and the entries whose kind the filesystem does not say (`.unknown`):
    /// the names of the other entries are never copied, which is most of a listing's cost in a view of files.
    public static func listDirectories(_ fd: FileDescriptor) throws(SystemCallError) -> [DirectoryEntry] {
        try list(fd, keeping: { $0 == .directory || $0 == .unknown })
    }

    private static func list(_ fd: FileDescriptor, keeping keep: (DirectoryEntry.Kind) -> Bool) throws(SystemCallError) -> [DirectoryEntry] {
        let copy = try duplicate(fd)
        guard let stream = fdopendir(copy.rawValue) else {
            let code = errno
            copy.close()
            throw SystemCallError("fdopendir", errno: code)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var out: [DirectoryEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallError("readdir", errno: errno) }
                break
            }
            let kind: DirectoryEntry.Kind
            switch Int32(photolibd_dirent_type(entry)) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            guard keep(kind) else { continue }
            let cName = photolibd_dirent_name(entry)!
            let length = strlen(cName)
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: length))
            guard let name = FileName(bytes: bytes) else { continue }  // "." and ".."
            out.append(DirectoryEntry(name: name, inode: UInt64(entry.pointee.d_ino), kind: kind))
        }
        return out
    }

    /// `statx` without following a symlink; `nil` when the name does not exist.
    /// Any other failure (`EACCES`, `EIO`) is thrown: it does not mean the file is gone.
    public static func status(of name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> FileStatus? {
        do {
            return try lookUp(name, in: dir)
        } catch where error.isNotFound {
            return nil
        }
    }

    /// `statx` without following a symlink, throwing every failure (`ENOENT` included).
    public static func lookUp(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> FileStatus {
        var st = photolibd_file_status()
        _ = try withName(name) { cName throws(SystemCallError) in
            try systemCall("statx") { photolibd_statx(dir.rawValue, cName, &st) }
        }
        return FileStatus(st)
    }

    /// `statx` of an open descriptor (an `O_PATH` one included).
    public static func status(of fd: FileDescriptor) throws(SystemCallError) -> FileStatus {
        var st = photolibd_file_status()
        _ = try systemCall("statx") { photolibd_statx(fd.rawValue, "", &st) }
        return FileStatus(st)
    }

    /// Opens an entry with `O_PATH | O_NOFOLLOW`: a handle on that very inode that
    /// reads nothing, never blocks (a FIFO), and is a symlink itself when the name is one.
    public static func openPath(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        let fd = try withName(name) { n throws(SystemCallError) in
            try systemCall("openat") { photolibd_open_path_nofollow(dir.rawValue, n) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Hardlinks the inode an open descriptor holds as `target` in `targetDir`
    /// (through `/proc/self/fd`): whatever happened to the source's name since it
    /// was opened and checked, the inode linked is the one checked.
    public static func link(open source: FileDescriptor, as target: FileName, in targetDir: FileDescriptor) throws(SystemCallError) {
        _ = try withName(target) { t throws(SystemCallError) in
            try systemCall("linkat") { photolibd_link_open_file(source.rawValue, targetDir.rawValue, t) }
        }
    }

    /// Makes a hardlink `target` in `targetDir` to `source` in `sourceDir`.
    ///
    /// The corresponding C function is `linkat` with no flags, so a symlink
    /// named `source` is linked as itself, never followed: callers verify the
    /// new entry's inode afterwards.
    public static func link(
        _ source: FileName, in sourceDir: FileDescriptor, as target: FileName, in targetDir: FileDescriptor
    ) throws(SystemCallError) {
        _ = try withName(source) { s throws(SystemCallError) in
            try withName(target) { t throws(SystemCallError) in
                try systemCall("linkat") { linkat(sourceDir.rawValue, s, targetDir.rawValue, t, 0) }
            }
        }
    }

    /// Makes a symbolic link `name` in `dir` holding `target`, a path's bytes (`symlinkat`).
    public static func symlink(target: [UInt8], as name: FileName, in dir: FileDescriptor) throws(SystemCallError) {
        let terminated = target.map { CChar(bitPattern: $0) } + [0]
        _ = try withName(name) { n throws(SystemCallError) in
            try terminated.withUnsafeBufferPointer { t throws(SystemCallError) in
                try systemCall("symlinkat") { symlinkat(t.baseAddress!, dir.rawValue, n) }
            }
        }
    }

    /// What the symbolic link `name` in `dir` holds (`readlinkat`): its bytes, at most 4,096.
    public static func readLink(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = try withName(name) { n throws(SystemCallError) in
            try buffer.withUnsafeMutableBufferPointer { b throws(SystemCallError) in
                try systemCall("readlinkat") { readlinkat(dir.rawValue, n, b.baseAddress!, 4097) }
            }
        }
        guard count <= 4096 else { throw SystemCallError("readlinkat", errno: ENAMETOOLONG) }
        return buffer.prefix(count).map { UInt8(bitPattern: $0) }
    }

    /// Removes a non-directory entry. Returns false when it did not exist.
    @discardableResult
    public static func unlink(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) -> Bool {
        do {
            _ = try withName(name) { n throws(SystemCallError) in
                try systemCall("unlinkat") { unlinkat(dir.rawValue, n, 0) }
            }
            return true
        } catch where error.errno == ENOENT {
            return false
        }
    }

    /// Creates a directory; succeeds quietly when a directory of that name exists.
    public static func makeDirectory(_ name: FileName, in dir: FileDescriptor, mode: UInt32 = 0o700) throws(SystemCallError) {
        do {
            _ = try withName(name) { n throws(SystemCallError) in
                try systemCall("mkdirat") { mkdirat(dir.rawValue, n, mode_t(mode)) }
            }
        } catch where error.errno == EEXIST {
            if try status(of: name, in: dir)?.kind != .directory { throw error }
        }
    }

    /// Renames within or across directories of one filesystem.
    public static func rename(
        _ source: FileName, in sourceDir: FileDescriptor, to target: FileName, in targetDir: FileDescriptor
    ) throws(SystemCallError) {
        _ = try withName(source) { s throws(SystemCallError) in
            try withName(target) { t throws(SystemCallError) in
                try systemCall("renameat") { renameat(sourceDir.rawValue, s, targetDir.rawValue, t) }
            }
        }
    }

    /// Removes a directory and everything below it, never following a symlink.
    public static func removeTree(_ name: FileName, in dir: FileDescriptor) throws(SystemCallError) {
        let child: FileDescriptor
        do {
            child = try open(name, in: dir)
        } catch where error.isNotFound {
            return
        } catch where error.errno == ELOOP {
            try unlink(name, in: dir)
            return
        }
        defer { child.close() }
        for entry in try list(child) {
            if entry.kind == .directory {
                try removeTree(entry.name, in: child)
            } else if entry.kind == .unknown, try status(of: entry.name, in: child)?.kind == .directory {
                try removeTree(entry.name, in: child)
            } else {
                try unlink(entry.name, in: child)
            }
        }
        do {
            _ = try withName(name) { n throws(SystemCallError) in
                try systemCall("unlinkat") { unlinkat(dir.rawValue, n, AT_REMOVEDIR) }
            }
        } catch where error.errno == ENOENT {}
    }

    /// Creates and opens a new file exclusively (for probes and markers).
    public static func createFile(_ name: FileName, in dir: FileDescriptor, mode: UInt32 = 0o600) throws(SystemCallError) -> FileDescriptor {
        let fd = try withName(name) { n throws(SystemCallError) in
            try systemCall("openat") {
                openat(dir.rawValue, n, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
            }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Calls `body` with the name as a NUL-terminated C string, built on the stack.
    static func withName<R>(_ name: FileName, _ body: (UnsafePointer<CChar>) throws(SystemCallError) -> R) throws(SystemCallError) -> R {
        let count = name.bytes.count
        let result: Result<R, SystemCallError> = withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            name.bytes.withUnsafeBufferPointer { source in
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: source.baseAddress!, byteCount: count)
            }
            buffer[count] = 0
            do throws(SystemCallError) {
                return .success(try body(buffer.baseAddress!))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
