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
    ///
    /// An ACL already right is left alone: a restart reconciles every directory
    /// of every view, and a read is far cheaper than a journaled inode update.
    public static func apply(_ list: ViewAccessList, to directory: FileDescriptor, inherited: Bool = true) throws(SystemCallError) {
        let value = list.encoded
        for name in inherited ? [accessName, defaultName] : [accessName] where current(name, of: directory, expecting: value.count) != value {
            _ = try systemCall("fsetxattr") {
                value.withUnsafeBytes { fsetxattr(directory.rawValue, name, $0.baseAddress, $0.count, 0) }
            }
        }
    }

    /// Sets `access` as the access ACL of `directory` and `inherited` as its default ACL.
    public static func apply(access: ViewAccessList, inherited: ViewAccessList, to directory: FileDescriptor) throws(SystemCallError) {
        for (name, list) in [(accessName, access), (defaultName, inherited)] {
            let value = list.encoded
            guard current(name, of: directory, expecting: value.count) != value else { continue }
            _ = try systemCall("fsetxattr") {
                value.withUnsafeBytes { fsetxattr(directory.rawValue, name, $0.baseAddress, $0.count, 0) }
            }
        }
    }

    /// The attribute's value when it has `size` bytes or fewer; nil when it is
    /// absent, longer, or cannot be read (then it is written anyway).
    private static func current(_ name: String, of directory: FileDescriptor, expecting size: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: size + 1)
        do {
            let count = try systemCall("fgetxattr") {
                buffer.withUnsafeMutableBytes { fgetxattr(directory.rawValue, name, $0.baseAddress, $0.count) }
            }
            return Array(buffer[..<count])
        } catch {
            return nil  // ENODATA, ERANGE (longer), …: written anyway
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
        for name in [accessName, defaultName] {
            do {
                _ = try systemCall("fremovexattr \(name)") { fremovexattr(directory.rawValue, name) }
            } catch where error.errno == ENODATA || error.errno == EOPNOTSUPP {
                // ENODATA: there was none; EOPNOTSUPP: the filesystem has no ACLs, so none can be there.
            }
        }
        var status = stat()
        _ = try systemCall("fstat") { fstat(directory.rawValue, &status) }
        if status.st_mode & 0o7777 == 0o700 { return }  // already right: no inode update
        _ = try systemCall("fchmod") { fchmod(directory.rawValue, 0o700) }
    }
}
