import Foundation
import Glibc

/// A small ext4 filesystem of the test's own, in an image file mounted by loop.
///
/// For tests that depend on how the filesystem allocates inodes: on the shared
/// /tmp, tests running at once take freed inode numbers from each other; here
/// the next new file gets a freed number at once, as ext4 does on a quiet disk.
final class ScratchFilesystem {
    let mountPoint: String
    private let image: String

    init(megabytes: Int = 64) throws {
        guard getuid() == 0 else { throw TestFailure("mounting a scratch filesystem needs root (CI runs the tests as root)") }
        var template = Array("/tmp/photolibd-fs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        mountPoint = String(cString: made)
        image = mountPoint + ".img"
        guard let file = fopen(image, "w") else { throw TestFailure("cannot create \(image): errno \(errno)") }
        let sized = ftruncate(fileno(file), off_t(megabytes) << 20)
        fclose(file)
        guard sized == 0 else { throw TestFailure("cannot size \(image): errno \(errno)") }
        let mkfs = try run("/sbin/mkfs.ext4", ["-q", "-F", image])
        guard mkfs.status == 0 else { throw TestFailure("mkfs.ext4 failed: \(mkfs.stderr)") }
        let mount = try run("/bin/mount", ["-o", "loop", image, mountPoint])
        guard mount.status == 0 else {
            throw TestFailure("mount -o loop \(image) failed (\(mount.status)): \(mount.stderr). This test needs loop devices.")
        }
        chmod(mountPoint, 0o755)
    }

    deinit {
        // Lazily: the test process may still hold a log file there (Foundation's
        // Process keeps its standard error handle); the kernel lets go of the
        // filesystem when the last descriptor closes.
        _ = try? run("/bin/umount", ["--lazy", mountPoint])
        rmdir(mountPoint)
        unlink(image)
    }
}
