import Foundation
import TestSupport
import Glibc
import Synchronization

/// A Flatpak repository holding a test runtime and test apps, built once per test run,
/// offline, with Debian's flatpak-tests scripts; and a test owner's user installation of it.
///
/// The runtime carries `xdg-user-dir` (xdg-user-dirs' own script), so a test asks where
/// Pictures is exactly as apps do. `org.test.Hello` is built with `--filesystem=xdg-pictures`
/// and `org.test.Home` with `--filesystem=home`, as their manifests would grant.
enum FlatpakRepository {
    static let apps: [(id: String, finishArguments: String)] = [
        ("org.test.Hello", "--filesystem=xdg-pictures"), ("org.test.Home", "--filesystem=home"),
    ]
    private static let scripts = "/usr/libexec/installed-tests/Flatpak"

    /// The repository's path, or why it could not be made (fails the test that asks). Built once,
    /// on a thread of its own: the build takes a while, and the cooperative pool has two threads.
    static func path() async throws -> String { try await built.value }

    private static let built = onThread { () throws -> String in
        guard FileManager.default.fileExists(atPath: scripts + "/make-test-app.sh") else {
            throw TestFailure("flatpak-tests is not installed (scripts/install-deps --test installs it)")
        }
        var template = Array("/tmp/photolibd-flatpak-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        let root = String(cString: made)
        madeRoot.withLock { $0 = root }
        atexit { removeRepository() }
        chmod(root, 0o755)
        // xdg-user-dir is a /bin/sh script, and the runtime script links sh to bash itself: the same script under bash.
        let bin = root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        let script = try String(contentsOfFile: "/usr/bin/xdg-user-dir", encoding: .utf8)
        let rebanged = "#!/bin/bash\n" + script.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().joined()
        try rebanged.write(toFile: bin + "/xdg-user-dir", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-user-dir", 0o755)
        let path = bin + ":/usr/bin:/bin:/usr/sbin:/sbin"
        let repo = root + "/repo"
        let tools = ["xdg-user-dir", "stat", "wc", "rm", "mv", "touch", "chmod", "truncate", "cp", "head", "tail", "sleep", "sort"]
        // The scripts write files (de.po, repos/) into their working directory and mktemp -d
        // folders: both in the repository's own folder, removed with it, never in the checkout.
        let environment = ["PATH": path, "HOME": root, "LANG": "C.UTF-8", "TMPDIR": root]
        func inRoot(_ arguments: [String], _ extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
            try runBlocking("/bin/sh", ["-c", "cd \"$0\" && exec /bin/bash \"$@\"", root] + arguments, environment: environment.merging(extra) { $1 })
        }
        try check(inRoot([scripts + "/make-test-runtime.sh", repo, "org.test.Platform", "master", "", ""] + tools), "make-test-runtime.sh")
        for app in apps {
            try check(inRoot([scripts + "/make-test-app.sh", repo, app.id, "master", "", ""], ["BUILD_FINISH_ARGS": app.finishArguments]),
                      "make-test-app.sh \(app.id)")
        }
        try check(runBlocking("/usr/bin/flatpak", ["build-update-repo", repo], environment: ["PATH": path, "HOME": root]),
                  "flatpak build-update-repo")
        try check(runBlocking("/bin/chmod", ["-R", "a+rX", root]), "chmod")
        return repo
    }

    private static func check(_ result: (status: Int32, stdout: String, stderr: String), _ what: String) throws {
        guard result.status == 0 else { throw TestFailure("\(what) failed (\(result.status)): \(result.stderr.suffix(2000))") }
    }

    private static let madeRoot = Mutex<String>("")

    private static func removeRepository() {
        let root = madeRoot.withLock { $0 }
        guard root.hasPrefix("/tmp/photolibd-flatpak-") else { return }
        // In this process: a child spawned while the process exits may never be waited for.
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// The test owner's own Flatpak: a user installation in the library's home (the daemon's HOME),
/// with `~/.config/user-dirs.dirs` naming the library as the Pictures folder, as a person's does.
struct FlatpakUser {
    let library: TestLibrary
    let owner: TestOwner
    var home: String { library.root }
    var runtimeDirectory: String { home + "/run" }
    var overrides: String { home + "/.local/share/flatpak/overrides" }

    /// The environment every command of the owner's gets, and the daemon too.
    var environment: [String: String] {
        ["HOME": home, "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
         "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "USER": owner.name]
    }

    /// Makes the owner's home and installs `apps` from the test repository.
    init(_ library: TestLibrary, installing apps: [String]) async throws {
        guard let owner = library.owner else { throw TestFailure("a Flatpak user needs a test owner") }
        self.library = library
        self.owner = owner
        let repo = try await FlatpakRepository.path()
        RunRecord.mounted(runtimeDirectory + "/doc")  // the Documents portal a Flatpak app's start brings up mounts there
        for directory in [runtimeDirectory, home + "/.config"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try owner.own(directory)
        }
        chmod(runtimeDirectory, 0o700)
        try writeFile(".config/user-dirs.dirs", "XDG_PICTURES_DIR=\"$HOME/lib\"\nXDG_DOWNLOAD_DIR=\"$HOME/Downloads\"\n")
        try await ok(["/usr/bin/flatpak", "--user", "remote-add", "--no-gpg-verify", "test", "file://" + repo])
        // Installing asks the system bus (for the system helper): one of its own, which nothing else sees.
        let bus = try await PrivateSystemBus.start(in: runtimeDirectory)
        defer { bus.stop() }
        let command = owner.command("/usr/bin/env") + ["-i"] + environment.map { "\($0.key)=\($0.value)" }
            + ["DBUS_SYSTEM_BUS_ADDRESS=" + bus.address, "/usr/bin/flatpak", "--user", "install", "-y", "--noninteractive", "test"] + apps
        let installed = try await EndToEndTests.run(command[0], Array(command.dropFirst()))
        guard installed.status == 0 else { throw TestFailure("flatpak install failed (\(installed.status)): \(installed.stderr)") }
    }

    /// Writes a file below the home, the owner's, making its missing folders (the owner's too).
    func writeFile(_ relative: String, _ text: String) throws {
        var path = home
        for part in relative.split(separator: "/").dropLast() {
            path += "/" + part
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try owner.own(path)
            }
        }
        try text.write(toFile: home + "/" + relative, atomically: false, encoding: .utf8)
        try owner.own(home + "/" + relative)
    }

    /// Runs a command as the owner with the owner's environment and nothing else.
    @discardableResult
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let command = ownersCommand(arguments)
        return try await EndToEndTests.run(command[0], Array(command.dropFirst()))
    }

    /// `arguments` as the owner runs them: their uid, and their environment alone.
    func ownersCommand(_ arguments: [String]) -> [String] {
        owner.command("/usr/bin/env") + ["-i"] + environment.map { "\($0.key)=\($0.value)" } + arguments
    }

    @discardableResult
    func ok(_ arguments: [String]) async throws -> String {
        let result = try await run(arguments)
        guard result.status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)") }
        return result.stdout
    }

    /// `flatpak run` of the app with `script` run by its shell, in a session bus of its own, as a
    /// person runs it; returns what the script printed (written into the app's own data folder, so
    /// the session's helpers, which outlive it holding its output, never keep the test waiting).
    func runApp(_ app: String, _ script: String, timeout: Double = 120) async throws -> String {
        let result = "~/.var/app/\(app)/photolibd-test-output"
        let running = try startApp(app, "{ \(script)\n} > \(result) 2>&1", output: home + "/flatpak-run.log")
        let status = await running.exited(timeout: timeout)
        stopSessionHelpers()
        let printed = (try? String(contentsOfFile: home + "/.var/app/\(app)/photolibd-test-output", encoding: .utf8)) ?? ""
        guard status == 0 else {
            let log = (try? String(contentsOfFile: running.output, encoding: .utf8)) ?? ""
            throw TestFailure("flatpak run \(app) ended with \(status.map(String.init) ?? "no exit within \(Int(timeout)) s"): \(printed)\n\(log.suffix(3000))")
        }
        return printed
    }

    /// The same, left running: its output goes to `output`.
    func startApp(_ app: String, _ script: String, output: String) throws -> SpawnedProcess {
        let command = owner.command("/usr/bin/env")
        return try SpawnedProcess(command[0], Array(command.dropFirst()) + ["-i"] + environment.map { "\($0.key)=\($0.value)" }
                                  + ["/usr/bin/dbus-run-session", "--", "/usr/bin/flatpak", "run", "--command=bash", app, "-c", script],
                                  output: output)
    }

    /// Stops what a `flatpak run` session started and left behind (the session helper, the document
    /// portal and its FUSE mount, the permission store): the owner is removed at the end of the test.
    func stopSessionHelpers() {
        _ = try? runBlocking("/usr/bin/pkill", ["-KILL", "-u", String(owner.uid), "-f",
                                                      "flatpak-session-helper|xdg-document-portal|xdg-permission-store|p11-kit"])
    }

    /// The app's Pictures folder on the host, where photolibd keeps its view.
    func picturesFolder(_ app: String) -> String { home + "/.var/app/" + app + "/lib" }
}

/// The system bus `flatpak install` wants, started for it alone: a bus at the machine's address
/// (`/run/dbus/system_bus_socket`) would be met by every program that starts while it runs, and the
/// tests run many at once. xdg-desktop-portal connects to the system bus at start (for RealtimeKit)
/// and, as GLib makes a program do, exits when that bus goes away: the portal tests' dialogs then
/// never got their answer. This one listens at a private address, given to flatpak alone in
/// `DBUS_SYSTEM_BUS_ADDRESS`, keeps no pid file and does not fork: it is the test's own child,
/// stopped through its pidfd.
struct PrivateSystemBus {
    private let daemon: SpawnedProcess
    let address: String

    /// Starts one with the system bus's own configuration, listening in `directory` (which the
    /// user who connects can enter), and waits until it listens.
    static func start(in directory: String) async throws -> PrivateSystemBus {
        let socket = directory + "/system_bus_socket"
        let address = "unix:path=" + socket
        let daemon = try SpawnedProcess("/usr/bin/dbus-daemon", ["--system", "--address=\(address)", "--nopidfile", "--nofork"],
                                        output: directory + "/system-bus.out")
        try await waitUntil("the private system bus to listen at \(socket)", while: daemon) { FileManager.default.fileExists(atPath: socket) }
        return PrivateSystemBus(daemon: daemon, address: address)
    }

    func stop() {
        daemon.signal(SIGTERM)
    }
}
