import ArgumentParser
import Foundation
import Logging
import PhotoLibClient
import PhotoLibPage
import PhotoLibSystem

/// `photolibd-page`: the person's page (SPEC §10), served on loopback as an admin client of photolibd.
///
/// Normally started by `photolibctl ui`, which then signs the browser in; it
/// exits by itself once idle.
struct PhotoLibdPage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photolibd-page",
        abstract: "Serve the person's page for photolibd on 127.0.0.1 (started by 'photolibctl ui').",
        discussion: """
            Run as the library's owner: it is an admin client of the daemon on its main socket. It serves \
            HTTP on 127.0.0.1 only, at a port the kernel picks (written to photolibd-page/server.json beside \
            the socket), lets in only a browser signed in by 'photolibctl ui', and exits once no page has been \
            open for --idle-exit seconds. Thumbnails are made with libvips in decoder processes of its own (photolibd-thumbnailer, one per core, each with its memory and time bounded), never in it or the daemon, and kept \
            in the freedesktop cache (~/.cache/thumbnails/large) shared with the desktop.
            """,
        version: "0.1.0")

    @Option(help: "The daemon's socket (default: as photolibctl finds it).")
    var socket: String?

    @Option(help: "Exit after this many seconds with no page open and no request.")
    var idleExit: Double = 600

    @Option(help: "Listen on this port of 127.0.0.1 (0: one the kernel picks).")
    var port: Int = 0

    @Option(help: "The directory of the page's files (default: found beside the executable).")
    var site: String?

    @Option(help: "Stop decoding a file after this many seconds (its tile shows a placeholder).")
    var decodeSeconds: Double = 20

    /// Catches SIGTERM and SIGINT before anything else, as photolibd does (`TerminationSignals`):
    /// a stop asked for while the server starts is kept for when it can act on it.
    static func start() async {
        do {
            try TerminationSignals.catchThem()
            var command = try parseAsRoot()
            if let page = command as? PhotoLibdPage {
                try await page.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    func run() async throws {
        let executable: String
        do {
            executable = try HelperExecutables.path("photolibd-thumbnailer")
        } catch {
            throw ValidationError("\(error)")
        }
        LoggingSystem.bootstrap { label in
            // Under systemd each line carries its priority for journald, as the daemon's do.
            var handler = StderrLogHandler(label: label)
            handler.logLevel = .notice
            return handler
        }
        let logger = Logger(label: "photolibd-page")
        let socket = PhotoLibConnection.socketPath(explicit: socket)
        guard let site = site ?? SiteDirectory.locate() else {
            throw ValidationError("The page's files are not installed beside photolibd-page (share/photolibd/page); pass --site DIR.")
        }
        let cacheHome = ProcessIdentity.environment("XDG_CACHE_HOME") ?? ProcessIdentity.environment("HOME").map { $0 + "/.cache" }
        let server = PageServer(settings: .init(socket: socket, site: site, cacheHome: cacheHome, idleSeconds: idleExit, port: port,
                                                  decoders: .init(executable: executable, maxSeconds: decodeSeconds)),
                                logger: logger)
        try await server.run()
    }
}

/// Where the page's files are: installed beside the binary (`../share/photolibd/page`),
/// or in the build's resource bundle next to it (`swift build`).
enum SiteDirectory {
    static func locate() -> String? {
        let binary = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let executable = URL(fileURLWithPath: binary).resolvingSymlinksInPath().deletingLastPathComponent().path
        let candidates = [
            executable + "/../share/photolibd/page",
            executable + "/photolibd_PhotoLibPage.resources/Site",
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }
}
