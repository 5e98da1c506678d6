import ArgumentParser
import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// `photolibctl ui`: opens the person's page, starting its server when needed.
///
/// The browser is signed in with a one-time secret that never appears on a
/// command line or in an environment (both readable by other processes): it
/// is written to a 0600 file in the page's own directory, and the browser is
/// handed either a 0600 page that posts it (`ui`) or, for scripts, a link
/// printed on standard output (`ui --url`). Either works once, within 60 s.
struct UICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Open the page where you choose which app sees which photos.",
        discussion: """
            Starts photolibd-page (the page's server, on 127.0.0.1) if it is not running, then opens the page \
            in your default browser ($BROWSER, else xdg-open), signed in once. With --url it prints a one-time link instead, \
            usable once within 60 seconds.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print a one-time sign-in link instead of opening a browser.")
    var url = false

    @Option(help: "Open this pending request's sheet (the number 'photolibctl requests' shows).")
    var request: Int64?

    func run() throws {
        let socket = PhotoLibConnection.socketPath(explicit: connection.socket)
        // The daemon must answer first: the page is nothing without it.
        _ = try connection.withConnection { try $0.call(.status, NoParams(), returning: StatusResult.self) }
        let paths = PagePaths(socket: socket)
        let port = try PageLauncher(paths: paths, socket: socket).ensureRunning()
        var generator = SystemRandomNumberGenerator()
        let id = Secret.hex(bytes: 16, using: &generator)
        let secret = Secret.hex(bytes: 32, using: &generator)
        do {
            let owner = try PrivateFiles.owner(of: paths.signInDirectory)
            let handOver = geteuid() == 0 && owner.uid != 0 ? owner : nil
            try PrivateFiles.write(paths.signInDirectory + "/" + id, Array(secret.utf8), owner: handOver)
            let next = request.map { "&next=request-\($0)" } ?? ""
            let link = "http://127.0.0.1:\(port)/sign-in?id=\(id)&secret=\(secret)\(next)"
            if url {
                print(link)
                return
            }
            let page = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Opening your photos…</title></head>
                <body><form method="post" action="http://127.0.0.1:\(port)/sign-in">
                <input type="hidden" name="id" value="\(id)"><input type="hidden" name="secret" value="\(secret)">
                <input type="hidden" name="next" value="\(request.map { "request-\($0)" } ?? "")">
                <noscript><button>Open your photos</button></noscript></form>
                <script>document.forms[0].submit()</script></body></html>
                """
            let file = paths.signInPage(id)
            try PrivateFiles.write(file, Array(page.utf8), owner: handOver)
            guard let opener = Self.browser() else {
                print("Open \(file) in your browser (within 60 seconds); xdg-open is not installed to do it for you.")
                return
            }
            _ = try DetachedProcess.start(opener, [file], output: "/dev/null")
            print("Opening the page in your browser (the sign-in works once, within 60 seconds).")
        } catch {
            Output.error("Cannot write the sign-in in \(paths.directory): \(error); check that directory is yours.")
            throw ExitStatus.failure.exitCode
        }
    }
}

extension UICommand {
    /// The program that opens a page: `$BROWSER` (its first entry, as xdg-open reads it) when set, else xdg-open.
    static func browser() -> String? {
        if let entry = ProcessIdentity.environment("BROWSER")?.split(separator: ":").first.map(String.init), !entry.isEmpty {
            if entry.hasPrefix("/") { return PathInspection.isExecutable(entry) ? entry : nil }
            let path = ProcessIdentity.environment("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
            if let found = path.split(separator: ":").map({ "\($0)/\(entry)" }).first(where: PathInspection.isExecutable) { return found }
        }
        return ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"].first(where: PathInspection.isExecutable)
    }
}

/// Finds the page server through `server.json`, or starts `photolibd-page` and waits for it.
struct PageLauncher {
    let paths: PagePaths
    let socket: String

    /// The port of a running page server, started if there was none.
    func ensureRunning() throws -> Int {
        if let running = running() { return running.port }
        guard let binary = Self.pageBinary() else {
            Output.error("photolibd-page is not installed beside photolibctl or on PATH; install photolibd (make install) to get the page.")
            throw ExitStatus.failure.exitCode
        }
        do {
            try PrivateFiles.makeDirectory(paths.directory)
        } catch {
            Output.error("Cannot make \(paths.directory) for the page: \(error); check the directory of the socket is yours.")
            throw ExitStatus.failure.exitCode
        }
        let pid: Int32
        do {
            pid = try DetachedProcess.start(binary, ["--socket", socket], output: paths.logFile)
        } catch {
            Output.error("Cannot start \(binary): \(error).")
            throw ExitStatus.failure.exitCode
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let running = running(), running.pid == pid { return running.port }
            guard DetachedProcess.isAlive(pid) else { break }
            usleep(20_000)
        }
        let log = (try? PrivateFiles.read(paths.logFile)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lastLine = log.split(separator: "\n").last.map(String.init) ?? "it printed nothing"
        Output.error("The page's server did not start: \(lastLine) (its log: \(paths.logFile)).")
        throw ExitStatus.failure.exitCode
    }

    private func running() -> (pid: Int32, port: Int)? {
        guard let bytes = (try? PrivateFiles.read(paths.serverFile)) ?? nil,
              let record = try? JSONDecoder().decode(ServerRecord.self, from: Data(bytes)),
              DetachedProcess.isAlive(record.pid), record.port > 0,
              DetachedProcess.loopbackAccepts(port: record.port) else { return nil }
        return (record.pid, record.port)
    }

    struct ServerRecord: Decodable {
        let pid: Int32
        let port: Int
    }

    /// `photolibd-page` beside this photolibctl, else the first on PATH.
    static func pageBinary() -> String? {
        var candidates: [String] = []
        if let own = DetachedProcess.ownExecutable {
            candidates.append(String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/photolibd-page")
        }
        for directory in (ProcessIdentity.environment("PATH") ?? "/usr/local/bin:/usr/bin").split(separator: ":") {
            candidates.append(directory + "/photolibd-page")
        }
        return candidates.first(where: PathInspection.isExecutable)
    }
}
