import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// The person's page (SPEC §10): HTTP on loopback, an admin client of the daemon.
///
/// It listens on 127.0.0.1 at a port the kernel picks, says where in
/// `PagePaths.serverFile`, lets in only browsers signed in with a one-time
/// secret (`SignIn`), checks every request (`PageGuard`), and exits once it
/// has been idle for `idleSeconds` (no request and no open event stream).
public struct PageServer: Sendable {
    public static let cookieName = "photolibd_page"

    public struct Settings: Sendable {
        public var socket: String
        public var site: String
        public var cacheHome: String?
        public var idleSeconds: Double
        public var port: Int
        public var decoders: DecoderPool.Settings

        public init(socket: String, site: String, cacheHome: String?, idleSeconds: Double, port: Int = 0, decoders: DecoderPool.Settings) {
            self.decoders = decoders
            self.socket = socket
            self.site = site
            self.cacheHome = cacheHome
            self.idleSeconds = idleSeconds
            self.port = port
        }
    }

    let settings: Settings
    let paths: PagePaths
    let logger: Logger
    let clock: any WallClock
    /// The uid the page runs as: the library's owner, whom the daemon's admin socket lets in.
    let ownerUID: UInt32

    /// - Parameters:
    ///   - clock: the time of day, for sign-in lifetimes, idleness, the report's span and closed pages.
    ///   - ownerUID: the uid it runs as, to tell which apps run as the owner.
    public init(settings: Settings, logger: Logger, clock: any WallClock = SystemClock(), ownerUID: UInt32 = ProcessIdentity.userID) {
        self.settings = settings
        self.paths = PagePaths(socket: settings.socket)
        self.logger = logger
        self.clock = clock
        self.ownerUID = ownerUID
    }

    /// Serves until SIGTERM, SIGINT, or idleness.
    public func run() async throws {
        try PrivateFiles.makeDirectory(paths.directory)
        try PrivateFiles.makeDirectory(paths.signInDirectory)
        let daemon = DaemonLink(socket: settings.socket)
        let status = try await daemon.call(.status, NoParams(), returning: StatusResult.self)
        let logger = self.logger
        let thumbnails = ThumbnailCache(
            decoders: DecoderPool(settings: settings.decoders), cacheHome: settings.cacheHome, log: { logger.warning("\($0)") })
        let activity = Activity(clock: clock)
        let port = BoundPort()
        let context = PageContext(daemon: daemon, library: status.library, thumbnails: thumbnails, signIn: SignIn(paths: paths),
                                  activity: activity, site: settings.site, logger: logger, clock: clock, ownerUID: ownerUID)
        let router = try Self.router(context, port: { port.value }, feed: EventFeed(socket: settings.socket, logger: logger))
        let paths = self.paths
        let clock = self.clock
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: settings.port), serverName: nil),
            onServerRunning: { channel in
                port.value = channel.localAddress?.port ?? 0
                let record = "{\"pid\":\(getpid()),\"port\":\(port.value)}\n"
                do {
                    try PrivateFiles.write(paths.serverFile, Array(record.utf8))
                    logger.notice("The page is served at http://127.0.0.1:\(port.value)/ for the library \(status.library); open it with 'photolibctl ui'.")
                } catch {
                    logger.critical("Cannot write \(paths.serverFile): \(error); photolibctl ui cannot find this server.")
                }
            },
            logger: logger)
        let idle = settings.idleSeconds
        let watcher = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(max(1, min(idle / 4, 10))))
                let (last, streams) = (await activity.last, await activity.openStreams)
                if streams == 0, Double(clock.nowMilliseconds() - last) / 1000 > idle {
                    logger.notice("Idle for \(Int(idle)) s with no page open: exiting.")
                    kill(getpid(), SIGTERM)
                    return
                }
            }
        }
        defer {
            watcher.cancel()
            // Only our own record: a newer server may have replaced it.
            if let bytes = (try? PrivateFiles.read(paths.serverFile)) ?? nil, String(decoding: bytes, as: UTF8.self).contains("\"pid\":\(getpid()),") {
                PrivateFiles.remove(paths.serverFile)
            }
        }
        // Stopped by SIGTERM or SIGINT (`TerminationSignals`, caught in main), and by the idle
        // watcher's own SIGTERM: not by the group's Dispatch signal sources, which can drop a
        // signal sent while they are being set up.
        let group = ServiceGroup(services: [app], logger: logger)
        let stopper = Task {
            _ = await TerminationSignals.next()
            await group.triggerGracefulShutdown()
        }
        defer { stopper.cancel() }
        try await group.run()
    }

    /// Every route of the page behind its guard: what the server serves, and what tests drive in process.
    /// - Parameter port: the port the server listens on, once known (the guard checks `Host` against it).
    static func router(_ context: PageContext, port: @escaping @Sendable () -> Int, feed: EventFeed) throws -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: PageGuard(port: port, signIn: context.signIn, activity: context.activity))
        SignInRoutes.add(to: router, context)
        try SiteRoutes.add(to: router, context)
        AppRoutes.add(to: router, context)
        AppRoutes.addRules(to: router, context)
        let book = PathBook(library: context.library)
        AssetRoutes.add(to: router, context, book: book)
        ReportRoutes.add(to: router, context, book: book)
        LibraryRoutes.add(to: router, context)
        RequestRoutes.add(to: router, context, feed: feed)
        return router
    }

    /// A JSON problem for the page: `{"error": message}` with `status`.
    static func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `value` as JSON with status 200.
    static func json<T: Encodable>(_ value: T) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

/// The port the server was given, known once it listens.
final class BoundPort: @unchecked Sendable {
    // @unchecked: written once before the first request is accepted, read after.
    private let lock = NSLock()
    private var port = 0
    var value: Int {
        get { lock.withLock { port } }
        set { lock.withLock { port = newValue } }
    }
}

/// What every route needs.
struct PageContext: Sendable {
    let daemon: DaemonLink
    let library: String
    let thumbnails: ThumbnailCache
    let signIn: SignIn
    let activity: Activity
    let site: String
    let logger: Logger
    let clock: any WallClock
    /// The uid the page runs as: the library's owner.
    let ownerUID: UInt32
}
