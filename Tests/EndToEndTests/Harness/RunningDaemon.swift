import Foundation
import Glibc

/// The real `photolibd` binary on a test library, driven through the real `photolibctl`.
final class RunningDaemon {
    static let buildDirectory: String = {
        // Tests/EndToEndTests/Harness/RunningDaemon.swift → package root
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path + "/.build/debug"
    }()

    let library: TestLibrary
    private(set) var process: Process?
    private let logPath: String

    init(_ library: TestLibrary) throws {
        self.library = library
        logPath = library.root + "/daemon.log"
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Starts the daemon and waits until its first scan and reconcile are done.
    func start(extraArguments: [String] = [], environment: [String: String] = [:]) async throws {
        let process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.executableURL = URL(fileURLWithPath: Self.buildDirectory + "/photolibd")
        process.arguments = ["--library", library.library, "--views-dir", library.views, "--state-dir", library.state,
                             "--socket", library.socket] + extraArguments
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = FileHandle(forWritingAtPath: logPath)!
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = log
        try process.run()
        self.process = process
        try await waitUntil("photolibd to become ready", timeout: 120) {
            guard process.isRunning else { throw TestFailure("photolibd exited: \(self.log)") }
            let status = try self.ctl("status", "--json")
            return status.status == 0 && status.stdout.contains("\"state\" : \"ready\"")
        }
    }

    /// Stops the daemon with SIGTERM and waits for it to exit.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Kills the daemon at once, as a crash would.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs photolibctl against this daemon.
    @discardableResult
    func ctl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        try ctl(arguments)
    }

    @discardableResult
    func ctl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(Self.buildDirectory + "/photolibctl", arguments + ["--socket", library.socket])
    }

    /// Runs photolibctl and fails the test unless it succeeds.
    @discardableResult
    func ok(_ arguments: String...) throws -> String {
        let result = try ctl(arguments)
        guard result.status == 0 else {
            throw TestFailure("photolibctl \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }

    /// Registers an app under a test uid and sets its read-write authorization.
    func addApp(_ app: String, _ status: String, uid: Int = 4242) throws {
        try ok("app", "add", app, "--uid", String(uid))
        try ok("authorize", app, status)
    }

    /// The library's assets as (path → id), from `photolibctl assets --json`.
    func assets() throws -> [String: String] {
        let data = Data(try ok("assets", "--json").utf8)
        let list = try JSONDecoder().decode([Asset].self, from: data)
        return Dictionary(list.map { ($0.path, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    func assetList() throws -> [Asset] {
        try JSONDecoder().decode([Asset].self, from: Data(try ok("assets", "--json").utf8))
    }

    struct Asset: Decodable {
        let id: String
        let path: String
        let mediaType: String
        let size: Int64
    }

    func view(_ app: String) -> String { library.views + "/" + app }
}
