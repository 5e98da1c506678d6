import CSystemShims
import Glibc
import PhotoLibCore

/// Checks that hardlinks can be made from the library into the views directory.
public enum MountCheck {
    public enum Outcome: Sendable, Equatable {
        case sameMount
        case otherMount
    }

    /// Compares the mount IDs (`statx` `STX_MNT_ID`) of the library root and the views root.
    ///
    /// `link()` fails with `EXDEV` exactly when the two paths are on different
    /// mounts, so equal mount IDs are the proof; the device number is not (a
    /// bind mount of the same filesystem has the same one). Nothing is written:
    /// an earlier probe file in the library root outlived a daemon killed at
    /// that instant. Only a kernel without `STX_MNT_ID` (before 5.8) gets that
    /// link probe, as the one check left.
    public static func probe(library: FileDescriptor, views: FileDescriptor) throws(SystemCallError) -> Outcome {
        do {
            return try mountID(library) == mountID(views) ? .sameMount : .otherMount
        } catch where error.errno == ENOTSUP {
            return try linkProbe(library: library, views: views)
        }
    }

    /// Links a probe file from the library root into the views root, then removes both.
    private static func linkProbe(library: FileDescriptor, views: FileDescriptor) throws(SystemCallError) -> Outcome {
        let probe = FileName(".photolibd-probe-\(getpid())")!
        try Directory.createFile(probe, in: library).close()
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
