import Glibc
public import PhotoLibCore

/// Whether this process can mount a view with photolibd-viewfs: the kernel's FUSE device, the
/// setuid `fusermount3` an ordinary user mounts through, a process allowed to gain its privileges,
/// and the server itself. Each missing piece is named, with what to do about it.
public enum FuseAvailability {
    /// Where `fusermount3` is looked for: libfuse runs the first it finds on PATH, then its own place.
    static let fusermountPlaces = ["/usr/bin/fusermount3", "/bin/fusermount3", "/usr/local/bin/fusermount3"]

    public static func probe() -> FuseSupport {
        do {
            FileDescriptor(rawValue: try systemCall("open /dev/fuse") { open("/dev/fuse", O_RDWR | O_CLOEXEC) }).close()
        } catch {
            return .unavailable(reason: "/dev/fuse cannot be opened: \(String(cString: strerror(error.errno))) (load the fuse module, or allow /dev/fuse in the service's DeviceAllow=)")
        }
        if geteuid() != 0 {
            guard let fusermount = fusermountPlaces.first(where: PathInspection.isExecutable) else {
                return .unavailable(reason: "fusermount3 is not installed (Debian: apt-get install fuse3)")
            }
            guard let status = PathInspection.status(fusermount), status.owner == 0, status.permissions & UInt32(S_ISUID) != 0 else {
                return .unavailable(reason: "\(fusermount) is not setuid root, so an ordinary user cannot mount with it")
            }
            if noNewPrivileges() {
                return .unavailable(reason: "this process runs with no_new_privs (a systemd unit's NoNewPrivileges=, or an option that implies it), under which fusermount3 cannot mount")
            }
        }
        do {
            _ = try HelperExecutables.path("photolibd-viewfs")
        } catch {
            return .unavailable(reason: error.message)
        }
        return .available
    }

    /// The `NoNewPrivs:` line of /proc/self/status: set, setuid programs run without their privileges.
    static func noNewPrivileges() -> Bool {
        let text = String(decoding: (try? PrivateFiles.read("/proc/self/status")) ?? [], as: UTF8.self)
        return text.split(separator: "\n").contains { $0.hasPrefix("NoNewPrivs:") && $0.hasSuffix("1") }
    }
}
