import Glibc
public import PhotoLibCore

/// Whether, and how, a view can be mounted with photolibd-viewfs here: as this process's child
/// (the kernel's FUSE device, the setuid `fusermount3` an ordinary user mounts through, and a
/// process allowed to gain its privileges), or, where this process may not (photolibd's systemd
/// units set no_new_privs), by the instances of `photolibd-viewfs.socket`. What is missing is named.
public enum FuseAvailability {
    /// Who mounts a view.
    public enum Route: Sendable, Equatable {
        /// This process starts the server (`photolibd-viewfs SOURCE MOUNTPOINT [INBOX]`).
        case child(executable: String)
        /// An instance of the socket unit listening at `socket` does (`photolibd-viewfs --from-socket`).
        case socketUnit(socket: String)
    }

    /// Where `fusermount3` is looked for: libfuse runs the first it finds on PATH, then its own place.
    static let fusermountPlaces = ["/usr/bin/fusermount3", "/bin/fusermount3", "/usr/local/bin/fusermount3"]

    /// The socket unit's socket in a runtime directory (systemd/user/photolibd-viewfs.socket).
    public static func socketPath(runtimeDirectory: String) -> String { runtimeDirectory + "/photolibd-viewfs.sock" }

    public static func probe(runtimeDirectory: String? = ProcessIdentity.environment("XDG_RUNTIME_DIR")) -> (FuseSupport, Route?) {
        if let reason = cannotMountHere() {
            guard let runtimeDirectory else {
                return (.unavailable(reason: reason + ", and XDG_RUNTIME_DIR, where photolibd-viewfs.socket listens, is unset"), nil)
            }
            let socket = socketPath(runtimeDirectory: runtimeDirectory)
            do {
                if try PathInspection.lookUpSocket(socket) { return (.available, .socketUnit(socket: socket)) }
            } catch {
                return (.unavailable(reason: reason + ", and \(socket) cannot be looked at (\(error))"), nil)
            }
            return (.unavailable(reason: reason + ", and no photolibd-viewfs.socket listens in \(runtimeDirectory)"), nil)
        }
        do {
            return (.available, .child(executable: try HelperExecutables.path("photolibd-viewfs")))
        } catch {
            return (.unavailable(reason: error.message), nil)
        }
    }

    /// Why this process cannot mount a FUSE view itself; nil when it can.
    static func cannotMountHere() -> String? {
        do {
            FileDescriptor(rawValue: try systemCall("open /dev/fuse") { open("/dev/fuse", O_RDWR | O_CLOEXEC) }).close()
        } catch {
            return "/dev/fuse cannot be opened (\(String(cString: strerror(error.errno))))"
        }
        guard geteuid() != 0 else { return nil }
        guard let fusermount = fusermountPlaces.first(where: PathInspection.isExecutable) else {
            return "fusermount3 is not installed (Debian: apt-get install fuse3)"
        }
        guard let status = PathInspection.status(fusermount), status.owner == 0, status.permissions & UInt32(S_ISUID) != 0 else {
            return "\(fusermount) is not setuid root, so an ordinary user cannot mount with it"
        }
        do {
            if try noNewPrivileges() {
                return "this process runs with no_new_privs (NoNewPrivileges= in its systemd unit), under which fusermount3 cannot mount"
            }
        } catch {
            // Not known is not "allowed": a mount tried blind would fail later, with a worse reason.
            return "whether this process may gain privileges cannot be read (\(error))"
        }
        return nil
    }

    /// The `NoNewPrivs:` line of /proc/self/status: set, setuid programs run without their privileges.
    static func noNewPrivileges() throws(SystemCallError) -> Bool {
        let text = String(decoding: try PrivateFiles.read("/proc/self/status") ?? [], as: UTF8.self)
        return text.split(separator: "\n").contains { $0.hasPrefix("NoNewPrivs:") && $0.hasSuffix("1") }
    }
}

extension FuseAvailability {
    /// Whether fusermount3 lets this process mount a view `allow_other`: root always, anyone else
    /// where `/etc/fuse.conf` sets `user_allow_other` (`FuseConfiguration`). No file allows nothing,
    /// as fusermount3 takes it; a file that cannot be read is an error, not a "no".
    public static func allowsOther(configuration path: String = "/etc/fuse.conf") throws(SystemCallError) -> Bool {
        if getuid() == 0 { return true }
        let file: FileDescriptor
        do {
            file = FileDescriptor(rawValue: try systemCall("open \(path)") { open(path, O_RDONLY | O_CLOEXEC) })
        } catch where error.errno == ENOENT {
            return false
        }
        defer { file.close() }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while text.count < 1 << 20 {
            let count = try systemCall("read \(path)") { chunk.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) } }
            if count == 0 { break }
            text += chunk[..<count]
        }
        return FuseConfiguration.allowsOther(String(decoding: text, as: UTF8.self))
    }
}
