import CSystemShims
import Glibc
public import PhotoLibCore

/// Sets or clears the POSIX ACL on a view directory.
public enum AccessControl {
    static let accessName = "system.posix_acl_access"
    static let defaultName = "system.posix_acl_default"

    /// Sets `list` as the access ACL of `directory` and, when `inherited`, as its
    /// default ACL too, so directories made inside later inherit it (they must be
    /// made with group bits `r-x`: those become their mask).
    public static func apply(_ list: ViewAccessList, to directory: FileDescriptor, inherited: Bool = true) throws(SystemCallError) {
        let value = list.encoded
        for name in inherited ? [accessName, defaultName] : [accessName] {
            _ = try systemCall("fsetxattr") {
                value.withUnsafeBytes { fsetxattr(directory.rawValue, name, $0.baseAddress, $0.count, 0) }
            }
        }
    }

    /// Sets `list` as the access ACL of the file at `path`, never following a
    /// symlink: for a socket, which cannot be opened to use `fsetxattr`.
    public static func apply(_ list: ViewAccessList, toPath path: String) throws(SystemCallError) {
        let value = list.encoded
        _ = try systemCall("lsetxattr") {
            value.withUnsafeBytes { lsetxattr(path, accessName, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Removes any ACL, leaving the owner alone in a 0700 directory.
    public static func clear(_ directory: FileDescriptor) throws(SystemCallError) {
        for name in [accessName, defaultName] where fremovexattr(directory.rawValue, name) != 0 {
            let code = errno
            // ENODATA: there was none; EOPNOTSUPP: the filesystem has no ACLs, so none can be there.
            guard code == ENODATA || code == EOPNOTSUPP else { throw SystemCallError("fremovexattr", errno: code) }
        }
        _ = try systemCall("fchmod") { fchmod(directory.rawValue, 0o700) }
    }
}
