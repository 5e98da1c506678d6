import CSystemShims
import Glibc
import PhotoLibCore

/// Checks that hardlinks can be made from the library into the views directory.
public enum MountCheck {
    public enum Outcome: Sendable, Equatable {
        case sameMount
        case otherMount
    }

    /// Links a probe file from the library root into the views root (then removes both).
    ///
    /// A real `link()` is the only proof that counts: a bind mount of the same
    /// filesystem has the same device number but still fails with `EXDEV`.
    /// When the library root is not writable, compares mount IDs (`statx`) instead.
    public static func probe(library: FileDescriptor, views: FileDescriptor) throws(SystemCallError) -> Outcome {
        let probe = FileName(".photolibd-probe-\(getpid())")!
        do {
            let fd = try Directory.createFile(probe, in: library)
            fd.close()
        } catch where error.errno == EACCES || error.errno == EROFS || error.errno == EPERM {
            return try mountID(library) == mountID(views) ? .sameMount : .otherMount
        }
        defer { _ = try? Directory.unlink(probe, in: library) }
        do {
            try Directory.link(probe, in: library, as: probe, in: views)
        } catch where error.errno == EXDEV {
            return .otherMount
        }
        try Directory.unlink(probe, in: views)
        return .sameMount
    }

    public static func mountID(_ fd: FileDescriptor) throws(SystemCallError) -> UInt64 {
        var id: UInt64 = 0
        _ = try systemCall("statx") { photolibd_mount_id(fd.rawValue, &id) }
        return id
    }
}
