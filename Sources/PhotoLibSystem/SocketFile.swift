import Glibc
import PhotoLibCore

/// The file a listening Unix socket is bound to: checking it is still ours,
/// removing it, and saying who may connect to it.
public enum SocketFile {
    /// The inode of the socket at `path`; nil when nothing is there, or
    /// something that is not a socket. Other failures are thrown: an error is
    /// not an absence.
    public static func inode(at path: String) throws(SystemCallError) -> UInt64? {
        var st = stat()
        do {
            _ = try systemCall("lstat") { lstat(path, &st) }
        } catch where error.isNotFound {
            return nil
        }
        return st.st_mode & S_IFMT == S_IFSOCK ? UInt64(st.st_ino) : nil
    }

    /// Removes the socket at `path` if it is still the one bound (`inode`), so a
    /// socket someone else bound there since is left alone.
    /// A failure other than "gone already" is thrown: the file is then still there.
    public static func remove(_ path: String, ifInode inode: UInt64) throws(SystemCallError) {
        // Cannot tell whose it is (thrown), or not ours any more: leave it.
        guard try Self.inode(at: path) == inode else { return }
        do {
            _ = try systemCall("unlink \(path)") { unlink(path) }
        } catch where error.isNotFound {
            // Gone already (removed by hand, or by a tmpfiles clean): what was wanted.
        }
    }

    /// Removes a socket file left at `path` by an earlier run, before binding
    /// there again; anything else found there stays, and the bind then fails.
    public static func removeStale(_ path: String) throws(SystemCallError) {
        guard try inode(at: path) != nil else { return }
        do {
            _ = try systemCall("unlink") { unlink(path) }
        } catch where error.isNotFound {
            return
        }
    }

    /// Lets the owner alone connect (0600), and `appUID` too when given (an
    /// ACL entry: connecting needs write permission on the socket).
    public static func restrict(_ path: String, alsoTo appUID: UInt32?) throws(SystemCallError) {
        _ = try systemCall("chmod") { chmod(path, 0o600) }
        if let appUID { try AccessControl.apply(ViewAccessList(endpointUser: appUID), toPath: path) }
    }
}
