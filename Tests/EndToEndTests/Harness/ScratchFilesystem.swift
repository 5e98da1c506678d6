import Foundation
import TestSupport
import Glibc

/// A small filesystem of the test's own, in a sparse image file mounted by loop.
///
/// For tests that depend on the filesystem: how it allocates inodes (on the
/// shared /tmp, tests running at once take freed inode numbers from each other;
/// on its own ext4 the next new file gets a freed number at once, as on a quiet
/// disk), or whether it can clone (btrfs, XFS with reflink).
/// Sendable so its teardown can run on the teardown thread, once the test is done with it.
final class ScratchFilesystem: @unchecked Sendable {
    enum Kind: String, CustomStringConvertible {
        case ext4, btrfs, xfs
        var description: String { rawValue }

        /// `mkfs` and its arguments, quiet, forced over the image.
        var mkfs: (String, [String]) {
            switch self {
            case .ext4: ("/sbin/mkfs.ext4", ["-q", "-F"])
            case .btrfs: ("/sbin/mkfs.btrfs", ["-q", "-f"])
            case .xfs: ("/sbin/mkfs.xfs", ["-q", "-f", "-m", "reflink=1"])
            }
        }

        /// The least each will make (mkfs.xfs refuses below 300 MiB, mkfs.btrfs below about 114).
        var minimumMegabytes: Int {
            switch self {
            case .ext4: 8
            case .btrfs: 128
            case .xfs: 320
            }
        }
    }

    let mountPoint: String
    let kind: Kind
    private let image: String

    init(_ kind: Kind = .ext4, megabytes: Int = 64) async throws {
        self.kind = kind
        let megabytes = max(megabytes, kind.minimumMegabytes)
        guard getuid() == 0 else { throw TestFailure("mounting a scratch filesystem needs root (CI runs the tests as root)") }
        var template = Array("/tmp/photolibd-fs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        mountPoint = String(cString: made)
        image = mountPoint + ".img"
        guard let file = fopen(image, "w") else { throw TestFailure("cannot create \(image): errno \(errno)") }
        let sized = ftruncate(fileno(file), off_t(megabytes) << 20)
        fclose(file)
        guard sized == 0 else { throw TestFailure("cannot size \(image): errno \(errno)") }
        let (tool, arguments) = kind.mkfs
        guard access(tool, X_OK) == 0 else { throw TestFailure("\(tool) is missing: scripts/install-deps --test installs it") }
        let mkfs = try await run(tool, arguments + [image])
        guard mkfs.status == 0 else { throw TestFailure("\(tool) failed: \(mkfs.stderr)") }
        let mount = try await run("/bin/mount", ["-o", "loop", image, mountPoint])
        guard mount.status == 0 else {
            throw TestFailure("mount -o loop \(image) failed (\(mount.status)): \(mount.stderr). This test needs loop devices.")
        }
        RunRecord.mounted(mountPoint, image: image)
        chmod(mountPoint, 0o755)
    }

    /// Bytes in use on the filesystem, after everything written so far has reached it.
    func bytesUsed() async throws -> Int64 {
        _ = try await run("/bin/sync", ["-f", mountPoint])
        var info = statvfs()
        guard statvfs(mountPoint, &info) == 0 else { throw TestFailure("statvfs \(mountPoint): errno \(errno)") }
        return Int64(info.f_blocks - info.f_bfree) * Int64(info.f_frsize)
    }

    deinit {
        // Lazily: the test process may still hold a file there open; the kernel lets go of
        // the filesystem when the last descriptor closes.
        _ = try? runBlocking("/bin/umount", ["--lazy", mountPoint])
        rmdir(mountPoint)
        unlink(image)
    }
}
