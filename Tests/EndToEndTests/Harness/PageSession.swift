import Foundation
import Glibc
import PhotoLibCore
import PhotoLibSystem
import Synchronization

/// The person's page for a running daemon, opened as the person opens it: `photolibctl ui --url`, run by the owner.
///
/// The page server it starts runs as the owner too (it is the owner's admin
/// client), with its thumbnail cache in the test's own home; it is stopped
/// when the session ends.
final class PageSession {
    let daemon: RunningDaemon
    /// The one-time sign-in link `photolibctl ui --url` printed.
    let url: String
    let port: Int

    init(_ daemon: RunningDaemon) async throws {
        self.daemon = daemon
        url = try await Self.link(daemon)
        guard let port = URLComponents(string: url)?.port else { throw TestFailure("photolibctl ui --url printed no port: \(url)") }
        self.port = port
        let first = url
        issued.withLock { $0[first] = Date() }
    }

    /// A one-time sign-in link from `photolibctl ui --url` run by the owner (which starts the page server when needed).
    static func link(_ daemon: RunningDaemon) async throws -> String {
        guard let owner = daemon.library.owner else { throw TestFailure("the page runs as the library's owner: start the daemon with one") }
        let ctl = owner.command(try ReachableCopies.binary("photolibctl"))
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = daemon.library.root
        environment.removeValue(forKey: "XDG_CACHE_HOME")
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        let result = try await run(ctl[0], Array(ctl.dropFirst()) + ["ui", "--url", "--socket", daemon.library.socket], environment: environment)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").first else {
            throw TestFailure("photolibctl ui --url failed (\(result.status)): \(result.stderr)")
        }
        return String(line)
    }

    /// Another one-time link, as a second `photolibctl ui --url` gives (the same server answers it).
    func freshLink() async throws -> String {
        let link = try await Self.link(daemon)
        issued.withLock { $0[link] = Date() }
        return link
    }

    /// Every sign-in link this session took, and when: one that waited its browser turn past the
    /// page server's 60 s is replaced by a fresh one when its turn comes (`signInLink`).
    private let issued = Mutex<[String: Date]>([:])

    /// The link a drive signs in with once its turn came: the one given, unless it is one this session
    /// took (or a sign-in file the portal or daemon wrote) more than 30 s ago, which the page server may
    /// refuse by now; then a fresh link, which shows every pending request's sheet just the same.
    func signInLink(_ given: String) async throws -> String {
        if given.hasPrefix("file://") {
            var status = stat()
            let old = stat(String(given.dropFirst("file://".count)), &status) == 0 && time(nil) - status.st_mtim.tv_sec > 30
            return await old ? try freshLink() : given
        }
        guard let taken = issued.withLock({ $0[given] }), Date().timeIntervalSince(taken) > 30 else { return given }
        return try await freshLink()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The page server's pid, from the record it keeps beside the socket.
    var serverPID: Int32? {
        let record = PagePaths(socket: daemon.library.socket).serverFile
        guard let data = FileManager.default.contents(atPath: record),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["pid"] as? Int).map(Int32.init)
    }

    /// The page server, pinned: only while the number its record gives is still a page server's (a
    /// server that exited long ago left its record, and pids wrap while the suite runs).
    var server: ProcessHandle? {
        serverPID.flatMap { try? ChildProcesses.pinned($0, named: "photolibd-page") }
    }

    deinit {
        _ = try? server?.signal(SIGTERM)
    }

    /// Starts `Tests/Browser/page_driver.py` with `arguments`; the caller awaits it. Chromium keeps its
    /// singleton socket and shared memory in `$TMPDIR`, so that is the test's own directory, removed with it.
    func browser(_ arguments: [String], output: String) throws -> SpawnedProcess {
        let temporary = daemon.library.root + "/browser-tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        return try SpawnedProcess("/usr/bin/python3", [try ReachableCopies.browserTool("page_driver.py")] + arguments,
                                  environment: ["TMPDIR": temporary], output: output)
    }

    /// Runs `body`, which starts Chromium and waits for it, in its turn (`BrowserTurns`: one at a time).
    func inBrowserTurn<T>(_ body: () async throws -> T) async throws -> T {
        await BrowserTurns.shared.acquire()
        do {
            let result = try await body()
            await BrowserTurns.shared.release()
            return result
        } catch {
            await BrowserTurns.shared.release()
            throw error
        }
    }

    /// Drives the page in headless Chromium with `Tests/Browser/page_driver.py`; its last JSON line.
    /// Awaited, not blocked on: a browser run takes seconds, and other tests wait meanwhile.
    func drive(_ arguments: [String]) async throws -> [String: Any] {
        try await inBrowserTurn { try await driveNow(arguments) }
    }

    private func driveNow(_ arguments: [String]) async throws -> [String: Any] {
        var arguments = arguments
        if arguments.count > 1 { arguments[1] = try await signInLink(arguments[1]) }
        let output = daemon.library.root + "/driver-\(UInt32.random(in: 0..<UInt32.max)).out"
        var driver = try browser(arguments, output: output)
        guard await driver.exited(timeout: 240) != nil else {
            driver.signal(SIGKILL)
            throw TestFailure("the browser driver did not finish within 240 s; it printed: \(driver.printed)")
        }
        // Chromium's own process died under it (seen twice in 400-test runs on two loaded cores, never
        // alone): the whole drive once more, signed in with a fresh one-time link, the crash kept in the log.
        // A sheet opened from the sign-in file the portal or daemon wrote is driven again through a fresh link too:
        // the page shows every pending request's sheet when it loads.
        if driver.printed.contains("the browser has closed the connection"), arguments.count > 1,
           arguments[1].hasPrefix("http") || arguments[1].hasPrefix("file://") {
            FileHandle.standardError.write(Data("chromium died under page_driver \(arguments[0]); driving again: \(driver.printed.suffix(300))\n".utf8))
            var again = arguments
            again[1] = try await freshLink()
            driver = try browser(again, output: output + ".again")
            guard await driver.exited(timeout: 240) != nil else {
                driver.signal(SIGKILL)
                throw TestFailure("the browser driver did not finish within 240 s; it printed: \(driver.printed)")
            }
        }
        // Its result is its last JSON line (what the browser says on stderr may come around it).
        let lines = driver.printed.split(separator: "\n").reversed()
        guard let object = lines.lazy.compactMap({ (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }).first else {
            throw TestFailure("the browser driver printed no result (it \(driver.ending))")
        }
        if let error = object["error"] {
            throw TestFailure("in the browser: \(error); the page showed: \(object["page"] ?? ""); at \(object["url"] ?? ""); its console: \(object["console"] ?? []); /api/requests now: \(object["requestsNow"] ?? "")")
        }
        return object
    }

    /// One raw HTTP request, as any client could send it; `as` runs it as another command prefix (a uid, a sandbox).
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
                 as prefix: [String] = []) async throws -> (status: Int, headers: [String: String], body: String, bodyBytes: [UInt8]) {
        var arguments = [method, path.hasPrefix("http") ? path : base + path]
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = "127.0.0.1:\(port)" }
        for (name, value) in headers { arguments += ["--header", "\(name): \(value)"] }
        if let body { arguments += ["--body", body] }
        let command = prefix + ["/usr/bin/python3", try ReachableCopies.browserTool("http_probe.py")] + arguments
        let result = try await run(command[0], Array(command.dropFirst()))
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw TestFailure("http_probe.py failed (\(result.status)): \(result.stderr)")
        }
        return (object["status"] as? Int ?? 0, object["headers"] as? [String: String] ?? [:], object["body"] as? String ?? "",
                Array((object["bytes"] as? String).flatMap { Data(base64Encoded: $0) } ?? Data()))
    }

    /// Signs in with a fresh one-time link and returns the session cookie and the CSRF token, as the browser holds them.
    func signIn() async throws -> (cookie: String, csrf: String) {
        let link = try await freshLink()
        let answer = try await request("GET", String(link.dropFirst(base.count)))
        guard answer.status == 200, let setCookie = answer.headers["set-cookie"],
              let cookie = setCookie.split(separator: ";").first.map(String.init) else {
            throw TestFailure("signing in failed: \(answer.status) \(answer.body)")
        }
        let session = try await request("GET", "/api/session", headers: ["Cookie": cookie])
        guard let object = try? JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any],
              let csrf = object["csrf"] as? String else { throw TestFailure("no CSRF token: \(session.body)") }
        return (cookie, csrf)
    }
}
