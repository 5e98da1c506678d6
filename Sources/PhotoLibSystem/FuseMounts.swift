import Glibc
public import PhotoLibCore

/// The views photolibd-viewfs has mounted, as the kernel lists them, and their removal: at start, a
/// mount left by a daemon that was killed (its server's unmounter killed with it) is unmounted before
/// anything looks into the folder (a dead server's mount answers ENOTCONN; a hung one blocks).
public enum FuseMounts {
    /// Every view mount this process's mount namespace holds.
    public static func viewMounts() throws(SystemCallError) -> [MountInfoLine] {
        let text = try PrivateFiles.read("/proc/self/mountinfo", limit: 64 << 20) ?? []
        return MountInfoLine.parse(String(decoding: text, as: UTF8.self)).filter { $0.type == MountInfoLine.viewType }
    }

    /// Detaches the mount at `path` now (`MNT_DETACH`: an app holding a file open there does not keep it):
    /// as root with umount2, otherwise through `fusermount3 -u -z`, waiting at most `seconds` for it.
    public static func unmountLazily(_ path: String, seconds: Double = 10) throws(SystemCallError) {
        if geteuid() == 0 {
            _ = try systemCall("umount2 \(path)") { umount2(path, Int32(MNT_DETACH)) }
            return
        }
        guard let fusermount = FuseAvailability.fusermountPlaces.first(where: PathInspection.isExecutable) else {
            throw SystemCallError("fusermount3 -u \(path) (fusermount3 is not installed)", errno: ENOENT)
        }
        let process = try HelperProcess(fusermount, ["-u", "-z", "-q", "--", path])
        guard try process.exits(within: seconds) else {
            process.kill()
            _ = try? process.reap()
            throw SystemCallError("fusermount3 -u \(path) (it did not end within \(Int(seconds)) s)", errno: ETIMEDOUT)
        }
        let ending = try process.reap()
        guard ending == .exited(0) else { throw SystemCallError("fusermount3 -u \(path) (it \(ending))", errno: EIO) }
    }
}
