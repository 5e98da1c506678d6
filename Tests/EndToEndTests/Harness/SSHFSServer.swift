import Foundation
import Glibc
import TestSupport

/// A NAS as the tests have one: OpenSSH's sshd on 127.0.0.1, started for one test with a config, a
/// host key and a client key of its own, serving a directory (`export`) that the test's owner mounts
/// with sshfs (`mountPoint`). A change the test makes in `export` itself is a change made on the
/// server (a phone's sync, another computer): inotify on the mount never hears of it.
///
/// sshd and sshfs run in the foreground as children of the test (signalled through their pidfds);
/// the mount is undone lazily as its owner and both stopped in teardown, even when the test fails.
/// The mount is never looked at by root (it could not: no `allow_other`) nor without a deadline.
final class SSHFSServer: @unchecked Sendable {
    let owner: TestOwner
    let root: String
    var export: String { root + "/export" }
    /// Where the export is mounted: a directory of the server's own, or one the test gave (its owner's, empty).
    let mountPoint: String
    private var keys: String { root + "/keys" }
    private(set) var port: UInt16 = 0
    private var sshd: ChildProcess?
    private var sshfs: ChildProcess?

    /// sshfs's directory cache, in seconds (20 by default): how long a change made on the server can
    /// stay unseen through the mount, before any round of photolibd's.
    static let cacheSeconds = 2

    /// Whether sshfs notices a server that went quiet (keep-alives every 2 s) and reconnects; without
    /// them, a server that stops answering (`freeze`) is waited for without end, as a hung NAS is.
    let keepsAlive: Bool

    init(owner: TestOwner, keepsAlive: Bool = true, mountingAt: String? = nil) async throws {
        self.keepsAlive = keepsAlive
        guard access("/usr/sbin/sshd", X_OK) == 0, access("/usr/bin/sshfs", X_OK) == 0 else {
            throw TestFailure("sshd or sshfs is missing: scripts/install-deps --test installs openssh-server and sshfs")
        }
        self.owner = owner
        var template = Array("/tmp/photolibd-nas-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        root = String(cString: made)
        mountPoint = mountingAt ?? root + "/mnt"
        RunRecord.madeDirectory(root)
        chmod(root, 0o755)
        for directory in [export, keys] + (mountingAt == nil ? [mountPoint] : []) { mkdir(directory, 0o755) }
        try owner.own(export)
        try owner.own(mountPoint)
        // sshd refuses a locked account ('!' in /etc/shadow, as useradd leaves it): no password, but not locked.
        let unlocked = try await run("/usr/sbin/usermod", ["-p", "*", owner.name])
        guard unlocked.status == 0 else { throw TestFailure("usermod -p '*' \(owner.name): \(unlocked.stderr)") }
        for key in ["host", "client"] {
            let made = try await run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", "\(keys)/\(key)"])
            guard made.status == 0 else { throw TestFailure("ssh-keygen: \(made.stderr)") }
        }
        try owner.own(keys + "/client")
        try FileManager.default.copyItem(atPath: keys + "/client.pub", toPath: keys + "/authorized_keys")
        let config = """
            ListenAddress 127.0.0.1
            HostKey \(keys)/host
            AuthorizedKeysFile \(keys)/authorized_keys
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no
            Subsystem sftp internal-sftp
            ForceCommand internal-sftp
            PidFile none
            """
        mkdir("/run/sshd", 0o755)  // sshd's privilege-separation directory
        // A port drawn at random, another one when it is taken; below the kernel's range for outgoing
        // connections, which could take it while the server is away and so keep it from coming back
        // on it (once seen: "Bind to port 49506 on 127.0.0.1 failed: Address already in use").
        var tries = 0
        let ephemeral = Self.ephemeralPortsStart()
        while true {
            port = UInt16.random(in: 10_000..<max(ephemeral, 10_001))
            guard !Self.listens(port) else { continue }
            try Data("Port \(port)\n".utf8 + Data(config.utf8) + Data("\n".utf8)).write(to: URL(fileURLWithPath: keys + "/sshd_config"))
            do {
                try await startServer()
                break
            } catch where tries < 5 {
                tries += 1
            }
        }
        try await mount()
    }

    deinit {
        Teardown.later("unmount \(mountPoint), stop sshfs and sshd") { [mountPoint, owner, sshfs, sshd, root] in
            withExtendedLifetime(owner) {}
            sshd?.signalGroup(SIGCONT)
            _ = try? runBlocking("/bin/umount", ["-l", mountPoint])
            _ = sshfs?.stop(grace: 10)
            sshd?.signalGroup(SIGKILL)
            _ = sshd?.stop(grace: 10)
            _ = try? runBlocking("/bin/rm", ["-rf", root])
        }
    }

    /// Starts sshd (again, after `stopServer`), and waits until it listens. In debug mode (`-d`) it
    /// serves the one connection sshfs makes in its own process, so stopping it ends that session too,
    /// as a NAS going away does (a daemonised sshd's session would outlive its listener).
    /// Unmounts the export in the teardown, in turn: after what was handed to it before (a daemon
    /// using the mount, stopped first), before what comes after (the directory the mount is in, removed).
    func unmountLater() {
        Teardown.later("unmount \(mountPoint)") { [mountPoint] in _ = try? runBlocking("/bin/umount", ["-l", mountPoint]) }
    }

    func startServer() async throws {
        let log = root + "/sshd-\(UInt32.random(in: 0..<UInt32.max)).log"
        let child = try ChildProcess("/usr/sbin/sshd", ["-d", "-e", "-f", keys + "/sshd_config"], streams: .file(log), ownProcessGroup: true)
        sshd = child
        // Its own word, not the socket table: sshfs, reconnecting, may take its one connection (and so
        // end its listening) before a look at the table would see it listen.
        try await waitUntil("sshd to listen on 127.0.0.1:\(port)", timeout: 30) {
            if let ending = child.ending {
                throw TestFailure("sshd \(ending): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            return ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Server listening on 127.0.0.1 port \(port)")
        }
    }

    /// Stops sshd and its session, as a NAS goes away: the mount stays, and what goes through it fails until it is back.
    func stopServer() async {
        guard let sshd else { return }
        sshd.signalGroup(SIGKILL)
        _ = await sshd.stopped(grace: 10)
        self.sshd = nil
    }

    /// Stops sshd without ending it (SIGSTOP to its group), as a server that stops answering: every call
    /// into the mount that is not served from sshfs's cache waits, in the kernel, until `thaw`.
    func freeze() {
        sshd?.signalGroup(SIGSTOP)
    }

    func thaw() {
        sshd?.signalGroup(SIGCONT)
    }

    /// sshfs as the owner, in the foreground, with its directory cache shortened to `cacheSeconds`.
    private func mount() async throws {
        let log = root + "/sshfs.log"
        let command = owner.command("/usr/bin/sshfs") + [
            "-f", "-p", String(port),
            "-o", "IdentityFile=\(keys)/client,StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null" + (keepsAlive ? ",reconnect,ServerAliveInterval=2" : ""),
            "-o", "dcache_timeout=\(Self.cacheSeconds)",
            "\(owner.name)@127.0.0.1:\(export)", mountPoint,
        ]
        let child = try ChildProcess(command[0], Array(command.dropFirst()), environment: ["HOME": root, "PATH": "/usr/bin:/bin"],
                                     streams: .file(log))
        sshfs = child
        try await waitUntil("sshfs to mount \(mountPoint)", timeout: 30) {
            if let ending = child.ending {
                throw TestFailure("sshfs \(ending): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            return Self.isMounted(mountPoint)
        }
    }

    /// Writes a file on the server side, the owner's (as a NAS's sync leaves it).
    func write(_ relative: String, contents: String = "photo") throws {
        let path = export + "/" + relative
        try makeDirectories((relative as NSString).deletingLastPathComponent)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try owner.own(path)
    }

    /// Makes directories on the server side, the owner's.
    func makeDirectories(_ relative: String) throws {
        var path = export
        for component in relative.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) == 0 { try owner.own(path) }
        }
    }

    /// Whether `path`, on the mount, exists as the owner sees it (root cannot look there).
    func ownerSees(_ path: String) async throws -> Bool {
        let command = owner.command("/usr/bin/test")
        return try await run(command[0], Array(command.dropFirst()) + ["-e", path], timeout: 10).status == 0
    }

    /// Whether the mount table names `path` as a mount point (read from /proc: the mount is never looked at).
    static func isMounted(_ path: String) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst(4).first.map(String.init) == path }
    }

    /// The first port the kernel may give an outgoing connection (`net.ipv4.ip_local_port_range`, 32768 by default).
    static func ephemeralPortsStart() -> UInt16 {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return range.split(whereSeparator: \.isWhitespace).first.flatMap { UInt16($0) } ?? 32_768
    }

    /// Whether a socket listens on 127.0.0.1:`port`, read from /proc/net/tcp (a connection to try
    /// it would be the one connection an sshd in debug mode serves).
    static func listens(_ port: UInt16) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let wanted = ":" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(wanted) && fields[3] == "0A"
        }
    }
}
