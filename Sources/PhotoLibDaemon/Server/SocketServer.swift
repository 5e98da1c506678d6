import PhotoLibConfiguration
import Glibc
import Logging
import NIOCore
import NIOPosix
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// The main Unix socket that `photolibctl` and apps connect to, and the event
/// loops the apps' endpoints (`EndpointSet`) are served on.
final class SocketServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    let path: String

    /// Whether the socket came from systemd (then systemd owns the file, and we leave it).
    private let activated: Bool
    /// A bootstrap whose connections are admitted as having come through `listener`.
    private let makeBootstrap: @Sendable (PeerAdmission.Listener) -> ServerBootstrap

    /// Adopts a socket passed by systemd, or else binds `path` (replacing a stale
    /// socket file, refusing a live one), and starts accepting.
    init(path: String, router: RequestRouter, limits: ConnectionLimits, logger: Logger, lineLimit: Int = LineFramer.defaultLimit) throws {
        self.path = path
        let passed = SocketActivation.passedListener()
        activated = passed != nil
        if passed == nil {
            if Self.isLive(path) { throw PhotoLibError.socketInUse(path: path) }
            unlink(path)
        }
        // More than one loop, so a connection pushing a huge line (up to the
        // 1 MiB limit) holds up only the connections on its own loop.
        group = MultiThreadedEventLoopGroup(numberOfThreads: min(4, max(2, System.coreCount)))
        makeBootstrap = { [group] listener in
            ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.backlog, value: 256)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(
                            IdleStateHandler(readTimeout: .seconds(Int64(limits.settings.idleTimeoutSeconds))),
                            ConnectionHandler(router: router, listener: listener, limits: limits, logger: logger, lineLimit: lineLimit))
                    }
                }
        }
        let bootstrap = makeBootstrap(.main)
        do {
            if let passed {
                channel = try bootstrap.withBoundSocket(passed).wait()
                logger.info("Listening on the socket passed by systemd.")
            } else {
                channel = try bootstrap.bind(unixDomainSocketPath: path).wait()
                // Anyone may connect; the peer's uid from SO_PEERCRED decides what it may do.
                chmod(path, 0o666)
            }
        } catch {
            try? group.syncShutdownGracefully()
            throw PhotoLibError.socketFailed(path: path, errno: (error as? IOError)?.errnoCode ?? EIO)
        }
    }

    /// Binds an app's endpoint at `path` on the same event loops (see `EndpointSet`).
    func bindEndpoint(path: String, app: AppID) async throws -> any Channel {
        try await makeBootstrap(.endpoint(app)).bind(unixDomainSocketPath: path).get()
    }

    /// True when something accepts connections on `path`.
    private static func isLive(_ path: String) -> Bool {
        (try? UnixStreamSocket(connectingTo: path)) != nil
    }

    func close() {
        try? channel.close().wait()
        if !activated { unlink(path) }
        try? group.syncShutdownGracefully()
    }
}
