import CSystemShims
import Glibc

/// Read-only looks at configured paths and kernel settings, for `photolibctl doctor`.
///
/// These follow symlinks on purpose: they answer "what will the daemon find at
/// this configured path", never walk the library (that goes through `Directory`).
public enum PathInspection {
    /// True when this process may execute the file at `path`.
    public static func isExecutable(_ path: String) -> Bool {
        (try? systemCall("access \(path)") { access(path, X_OK) }) != nil
    }

    /// `stat` of a path, or nil when nothing is there (or it cannot be reached: `doctor` then
    /// shows it missing, and `lookUp` tells the two apart where that matters).
    public static func status(_ path: String) -> FileStatus? {
        try? lookUp(path)
    }

    /// `lstat` of a path (a symlink is itself, not what it names); nil when nothing is there, any other failure thrown.
    public static func lookUpLink(_ path: String) throws(SystemCallError) -> FileStatus? {
        var st = stat()
        do {
            _ = try systemCall("lstat \(path)") { lstat(path, &st) }
        } catch where error.isNotFound {
            return nil
        }
        return FileStatus(st)
    }

    /// Whether a Unix socket is at `path` (not following a symlink there); false when nothing is
    /// there, any other failure (EACCES, EIO) thrown, never taken for an absence.
    public static func lookUpSocket(_ path: String) throws(SystemCallError) -> Bool {
        var st = stat()
        do {
            _ = try systemCall("lstat \(path)") { lstat(path, &st) }
        } catch where error.isNotFound {
            return false
        }
        return st.st_mode & S_IFMT == S_IFSOCK
    }

    /// `stat` of a path; nil when nothing is there, any other failure thrown.
    public static func lookUp(_ path: String) throws(SystemCallError) -> FileStatus? {
        var st = stat()
        do {
            _ = try systemCall("stat \(path)") { stat(path, &st) }
        } catch where error.isNotFound {
            return nil
        }
        return FileStatus(st)
    }

    /// The mount ID (`statx`) of the directory at `path`, or of its nearest existing
    /// ancestor when it does not exist yet: that is where the daemon would create it.
    public static func mountID(ofNearest path: String) -> UInt64? {
        var candidate = path
        while true {
            if let fd = try? Directory.open(path: candidate) {
                defer { fd.close() }
                return try? MountCheck.mountID(fd)
            }
            guard let slash = candidate.lastIndex(of: "/"), candidate != "/" else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    /// The POSIX access ACL of a path (`system.posix_acl_access`), or nil when it has none.
    public static func accessList(_ path: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { getxattr(path, AccessControl.accessName, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// The groups a uid's processes would have: its primary group and its
    /// supplementary groups from the user database. Empty when the uid has no
    /// user entry (an app uid made only for a sandbox): then it has none.
    public static func groups(ofUser uid: UInt32) -> Set<UInt32> {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var strings = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &strings, strings.count, &result) == 0, result != nil else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(entry.pw_name, entry.pw_gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(entry.pw_name, entry.pw_gid, &groups, &count) >= 0 else { return [entry.pw_gid] }
        }
        return Set(groups.prefix(Int(count))).union([entry.pw_gid])
    }

    /// A whole-number kernel setting such as `fs.inotify.max_user_watches`, read from /proc/sys.
    public static func kernelSetting(_ name: String) -> Int? {
        let path = "/proc/sys/" + String(name.map { $0 == "." ? "/" : $0 })
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int(text.filter { !$0.isWhitespace })
    }
}
