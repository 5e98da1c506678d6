import Foundation
import Glibc
import PhotoLibClient
import PhotoLibProtocol
import Testing
import TestSupport

/// The real `photolibd` binary on a test library, driven through the real `photolibctl`.
final class RunningDaemon {
    /// The package's root directory (the checkout).
    static let packageRoot: String = {
        // Tests/EndToEndTests/Harness/RunningDaemon.swift → package root
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var buildDirectory: String { packageRoot + "/.build/debug" }

    /// A script in scripts/.
    static func script(_ name: String) -> String { packageRoot + "/scripts/" + name }

    let library: TestLibrary
    /// The daemon's process (its first program is `launcher`'s, when given), once started.
    private(set) var process: ChildProcess?
    private var knownViews: [String: String] = [:]
    private let logPath: String

    init(_ library: TestLibrary) throws {
        self.library = library
        logPath = library.root + "/daemon.log"
    }

    deinit {
        // Never waits here (a deinit may run on the cooperative pool): the teardown thread stops the
        // daemon, then lets the library go, whose removal (and its owner's) needs the daemon gone.
        guard let process else { return }
        Teardown.later("stop photolibd (pid \(process.pid)) on \(library.root)") { [library] in
            process.stop(grace: 30)
            withExtendedLifetime(library) {}
        }
    }

    /// The daemon's pid, for reading /proc while it runs (signal it through `process`).
    var pid: Int32 { process?.pid ?? -1 }

    /// Starts the daemon and waits until its first scan and reconcile are done.
    /// `launcher` runs before the binary (for example `systemd-socket-activate -l SOCKET`).
    /// With `journal`, JOURNAL_STREAM names the log file, as systemd names the journal's stream.
    /// `onceSpawned` runs as soon as the process exists, before it is ready (with its pid).
    /// `binary` replaces the built `photolibd` (a copy in a directory of the test's, with helpers of its own beside it).
    func start(extraArguments: [String] = [], environment: [String: String] = [:], launcher: [String] = [],
               journal: Bool = false, binary: String? = nil, onceSpawned: ((Int32) async throws -> Void)? = nil) async throws {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        var environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if journal {
            var st = stat()
            stat(logPath, &st)
            environment["JOURNAL_STREAM"] = "\(st.st_dev):\(st.st_ino)"
        }
        let daemonArguments = ["--library", library.library, "--views-dir", library.views, "--state-dir", library.state,
                                "--socket", library.socket] + extraArguments
        // As the library's owner when it has one (setpriv execs: the pid is the daemon's),
        // from a copy the owner can reach wherever the checkout sits.
        let executable = try binary ?? (library.owner == nil ? Self.buildDirectory + "/photolibd" : try ReachableCopies.binary("photolibd"))
        let binary = library.owner.map { $0.command(executable) } ?? [executable]
        if let owner = library.owner {
            environment["HOME"] = library.root
            environment["USER"] = owner.name
            environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        }
        let command = launcher + binary + daemonArguments
        let process = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, streams: .file(logPath))
        self.process = process
        try await onceSpawned?(process.pid)
        // Polled in-process through the client library: cheaper than a
        // photolibctl per poll, and the first connection is what makes
        // systemd-socket-activate exec the daemon.
        try await waitUntil("photolibd to become ready", timeout: 120) {
            if let ending = process.ending { throw TestFailure("photolibd \(ending): \(self.log)") }
            guard let connection = try? PhotoLibConnection(socketPath: self.library.socket, receiveTimeout: 30),
                  let status = try? connection.call(.status, NoParams(), returning: StatusResult.self) else { return false }
            return status.state == "ready" || status.state == "degraded"
        }
    }

    /// Whether process `pid` has an inotify instance with a watch on `inode` (its descriptors'
    /// `fdinfo` lists each watch's inode, in hex).
    static func watches(_ pid: Int32, inode: UInt64) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fdinfo")) ?? []
        let wanted = " ino:" + String(inode, radix: 16) + " "
        return descriptors.contains { descriptor in
            let info = (try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(descriptor)", encoding: .utf8)) ?? ""
            return info.split(separator: "\n").contains { $0.hasPrefix("inotify wd:") && $0.contains(wanted) }
        }
    }

    /// Stops the daemon with SIGTERM and awaits its exit (off the cooperative pool); one that does
    /// not stop within 30 s is killed and recorded as a failure, never left hanging.
    func stop() async {
        guard let process, process.isRunning else { return }
        process.signal(SIGTERM)
        if await process.exited(timeout: 30) == nil {
            // What each thread was waiting in, read before the kill: the next time this happens, it says why.
            let threads = Self.threads(of: process.pid)
            await process.stopped(grace: 0)
            Issue.record("photolibd did not stop within 30 s of SIGTERM; its threads: \(threads); the end of its log: \(log.suffix(3000))")
        }
    }

    /// Sends SIGTERM now and leaves the wait for the exit to the teardown thread: for a `defer`,
    /// which cannot await, at the end of a test that needs nothing more from the daemon.
    func stopLater() {
        guard let process, process.isRunning else { return }
        process.signal(SIGTERM)
        Teardown.later("stop photolibd (pid \(process.pid))") { process.stop(grace: 30) }
    }

    /// Each thread of a process: its name, state and the kernel function it waits in (`wchan`).
    static func threads(of pid: Int32) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { tid in
            let read = { (name: String) in
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/\(name)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let state = read("stat").split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
            return "\(tid) \(read("comm")) \(state) \(read("wchan"))"
        }.joined(separator: "; ")
    }

    /// Kills the daemon at once, as a crash would.
    func kill() async {
        guard let process, process.isRunning else { return }
        process.signal(SIGKILL)
        if await process.exited(timeout: 60) == nil {
            Issue.record("photolibd still runs 60 s after SIGKILL; its threads: \(Self.threads(of: process.pid))")
        }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs photolibctl against this daemon.
    @discardableResult
    func ctl(_ arguments: String...) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ctl(arguments)
    }

    @discardableResult
    func ctl(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run(Self.buildDirectory + "/photolibctl", arguments + ["--socket", library.socket])
    }

    /// Runs photolibctl and fails the test unless it succeeds.
    @discardableResult
    func ok(_ arguments: String...) async throws -> String {
        let result = try await ctl(arguments)
        guard result.status == 0 else {
            throw TestFailure("photolibctl \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }

    /// Registers an app under a test uid and sets its read-write authorization.
    func addApp(_ app: String, _ status: String, uid: Int = 4242) async throws {
        try await ok("app", "add", app, "--uid", String(uid))
        try await ok("authorize", app, status)
    }

    /// The library's assets as (path → id), from `photolibctl assets --json`.
    func assets() async throws -> [String: String] {
        let data = Data(try await ok("assets", "--json").utf8)
        let list = try JSONDecoder().decode([Asset].self, from: data)
        return Dictionary(list.map { ($0.path, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// The library's assets as (path → the ID `app` knows it by), from `photolibctl assets --app APP --json`.
    func appIDs(_ app: String) async throws -> [String: String] {
        let list = try JSONDecoder().decode([AssetInfo].self, from: Data(try await ok("assets", "--app", app, "--json").utf8))
        return Dictionary(list.compactMap { info in info.appID.map { (info.path, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    func assetList() async throws -> [Asset] {
        try JSONDecoder().decode([Asset].self, from: Data(try await ok("assets", "--json").utf8))
    }

    struct Asset: Decodable {
        let id: String
        let path: String
        let mediaType: String
        let size: Int64
    }

    /// The app's view directory, as `photolibctl apps --json` names it (view names
    /// are random, never the app ID). Asked once per app and remembered while the
    /// directory exists; an app removed and added again gets a new one.
    func view(_ app: String) async -> String {
        if let known = knownViews[app], FileManager.default.fileExists(atPath: known) { return known }
        guard let output = try? await ok("apps", "--json"),
              let apps = try? JSONDecoder().decode([AppInfo].self, from: Data(output.utf8)),
              let info = apps.first(where: { $0.app == app }) else {
            return library.views + "/(no view: \(app) is not registered)"
        }
        knownViews[app] = info.view
        return info.view
    }
}

extension RunningDaemon {
    /// `photolibctl status --json`, decoded.
    func status() async throws -> StatusResult {
        try JSONDecoder().decode(StatusResult.self, from: Data(try await ok("status", "--json").utf8))
    }

    /// `photolibctl assets --json`, decoded in full.
    func assetInfos(_ extra: String...) async throws -> [AssetInfo] {
        try JSONDecoder().decode([AssetInfo].self, from: Data(try await ctlOK(["assets", "--json"] + extra).utf8))
    }

    /// Runs photolibctl with these arguments and fails the test unless it succeeds.
    func ctlOK(_ arguments: [String]) async throws -> String {
        let result = try await ctl(arguments)
        guard result.status == 0 else {
            throw TestFailure("photolibctl \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }
}

extension RunningDaemon {
    /// A daemon run by a fresh ordinary user who owns the library (root would
    /// hide permission bugs), on a library `setUp` fills first; ready when returned.
    static func startedByOwner(ownFilesystem: Bool = false, _ setUp: (TestLibrary) async throws -> Void) async throws -> RunningDaemon {
        try await startedByOwner(on: ownFilesystem ? try ScratchFilesystem() : nil, setUp)
    }

    /// The same, on a filesystem of its own, with a configuration file holding `configuration` (TOML) when given.
    static func startedByOwner(on filesystem: ScratchFilesystem?, configuration: String? = nil,
                               _ setUp: (TestLibrary) async throws -> Void) async throws -> RunningDaemon {
        let library = try await TestLibrary(owner: try TestOwner(), filesystem: filesystem)
        try await setUp(library)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: try configuration.map { ["--config", try library.writeConfiguration($0)] } ?? [])
        return daemon
    }

    /// Every file in an app's view, by path relative to it.
    func viewEntries(_ app: String) async -> Set<String> {
        library.files(below: await view(app))
    }
}
