import CSystemShims
import Glibc
public import PhotoLibCore

/// Reflink clones for views in `clones` mode: a new inode that shares every
/// block with its source (`FICLONE`), so no data is written and an app's entry
/// tells nothing of other apps' entries.
public enum FileClone {
    /// Whether files in `directory` can be cloned there: one unnamed file is cloned
    /// into another, and both vanish when closed. A refusal that means "this
    /// filesystem cannot" is an answer; any other failure (EIO, ENOSPC) is thrown,
    /// never taken for "cannot clone".
    public static func probe(in directory: FileDescriptor) throws(SystemCallError) -> CloneSupport {
        let source: FileDescriptor
        do {
            source = try openUnnamed(in: directory)
        } catch where cannotClone(error.errno) {
            return .unsupported(reason: "O_TMPFILE: \(String(cString: strerror(error.errno)))")
        }
        defer { source.close() }
        var byte: UInt8 = 0x2a
        _ = try systemCall("write") { Glibc.write(source.rawValue, &byte, 1) }
        let target = try openUnnamed(in: directory)
        defer { target.close() }
        do {
            _ = try systemCall("ioctl(FICLONE)") { photolibd_ficlone(target.rawValue, source.rawValue) }
        } catch where cannotClone(error.errno) {
            return .unsupported(reason: "FICLONE: \(String(cString: strerror(error.errno)))")
        }
        return .supported
    }

    /// The errors by which a filesystem says it cannot clone (or make unnamed files).
    private static func cannotClone(_ code: Int32) -> Bool {
        [EOPNOTSUPP, ENOTTY, EINVAL, EXDEV, EISDIR].contains(code)
    }

    /// The filesystem's name, from `fstatfs`, for what the person is told ("xfs", "ext4").
    public static func filesystemName(of fd: FileDescriptor) -> String {
        do {
            return try filesystem(of: fd).name
        } catch {
            return "an unknown filesystem (fstatfs: \(error))"
        }
    }

    /// Which filesystem `fd` is on (`fstatfs`): on a remote one whose server stopped answering, this blocks too.
    public static func filesystem(of fd: FileDescriptor) throws(SystemCallError) -> FilesystemKind {
        var type: UInt = 0
        _ = try systemCall("fstatfs") { photolibd_filesystem_type(fd.rawValue, &type) }
        return FilesystemKind(magic: type)
    }

    /// Opens an `O_PATH` descriptor's file again, for reading, through `/proc/self/fd`: that
    /// very inode, whatever happened to its name since it was opened and judged.
    public static func openForReading(_ pathDescriptor: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("open(/proc/self/fd)") { photolibd_reopen_read_only(pathDescriptor.rawValue) })
    }

    /// Makes `name` in `staging` (a directory of the daemon's own, outside every view) a
    /// clone of `source` (open for reading), with `permissions` and the modification time
    /// `modificationTime` (nanoseconds). The caller renames it into a view once it is whole:
    /// no app ever sees it half made, and a crash leaves it only in `staging`. On failure
    /// nothing is left. With `orCopy`, a filesystem that cannot clone gets a copy of the
    /// bytes instead (`FileCopy.copy`): still an inode of its own, so nothing written to it
    /// reaches the original.
    public static func clone(_ source: FileDescriptor, as name: FileName, in staging: FileDescriptor, permissions: UInt32,
                             modificationTime: Int64, orCopy: Bool = false) throws(SystemCallError) {
        let clone = try Directory.createFile(name, in: staging, mode: 0o600)
        defer { clone.close() }
        do {
            if orCopy {
                _ = try FileCopy.copy(from: source, to: clone, limit: Int64.max - 1)
            } else {
                _ = try systemCall("ioctl(FICLONE)") { photolibd_ficlone(clone.rawValue, source.rawValue) }
            }
            _ = try systemCall("fchmod") { fchmod(clone.rawValue, mode_t(permissions)) }
            let seconds = modificationTime >= 0 ? modificationTime / 1_000_000_000 : (modificationTime - 999_999_999) / 1_000_000_000
            let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(modificationTime - seconds * 1_000_000_000))
            var times = [time, time]
            _ = try systemCall("futimens") { futimens(clone.rawValue, &times) }
        } catch {
            _ = try? Directory.unlink(name, in: staging)  // what cannot be removed now, the next start clears
            throw error
        }
    }

    private static func openUnnamed(in directory: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall("openat(O_TMPFILE)") { photolibd_open_tmpfile(directory.rawValue) })
    }
}

extension FileStatus {
    /// The file as a view's diff judges it (`WantedEntry`).
    public var presentFile: PresentFile {
        PresentFile(inode: inode, stamp: ContentStamp(size: size, modificationTime: modificationTime), linkCount: linkCount)
    }
}
