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
    /// The same, for a connection accepted elsewhere (an endpoint's).
    private let makeConnectionBootstrap: @Sendable (PeerAdmission.Listener) -> ClientBootstrap
    private let logger: Logger

    /// Adopts the socket `passed` by systemd, or else binds `path` (replacing a
    /// stale socket file, refusing a live one), and starts accepting.
    init(path: String, passed: Int32?, router: RequestRouter, limits: ConnectionLimits, logger: Logger,
         lineLimit: Int = LineFramer.defaultLimit) throws {
        self.path = path
        activated = passed != nil
        if passed == nil {
            if Self.isLive(path) { throw PhotoLibError.socketInUse(path: path) }
            do {
                try SocketFile.removeStale(path)
            } catch {
                throw PhotoLibError.systemCall(name: error.call, path: path, errno: error.errno)
            }
        }
        // More than one loop, so a connection pushing a huge line (up to the
        // 1 MiB limit) holds up only the connections on its own loop.
        group = MultiThreadedEventLoopGroup(numberOfThreads: min(4, max(2, System.coreCount)))
        makeBootstrap = { [group] listener in
            ServerBootstrap(group: group)
                // Room for a storm of connections at once (1,000 in scripts/load) while the loops accept:
                // a full backlog turns a non-blocking client's connect into EAGAIN.
                .serverChannelOption(ChannelOptions.backlog, value: 1024)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(
                            DescriptorSender(logger: logger),  // nearest the socket: every write passes it
                            IdleStateHandler(readTimeout: .seconds(Int64(limits.settings.idleTimeoutSeconds))),
                            ConnectionHandler(router: router, listener: listener, limits: limits, logger: logger, lineLimit: lineLimit))
                    }
                }
        }
        makeConnectionBootstrap = { [group] listener in
            ClientBootstrap(group: group).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        DescriptorSender(logger: logger),  // nearest the socket: every write passes it
                        IdleStateHandler(readTimeout: .seconds(Int64(limits.settings.idleTimeoutSeconds))),
                        ConnectionHandler(router: router, listener: listener, limits: limits, logger: logger, lineLimit: lineLimit))
                }
            }
        }
        self.logger = logger
        let bootstrap = makeBootstrap(.main)
        do {
            if let passed {
                channel = try bootstrap.withBoundSocket(passed).wait()
                logger.info("Listening on the socket passed by systemd.")
            } else {
                channel = try bootstrap.bind(unixDomainSocketPath: path).wait()
                // Anyone may connect; the peer's uid from SO_PEERCRED decides what it may do.
                try ProcessIdentity.setMode(path, 0o666)
            }
        } catch {
            // The error worth reporting is the bind's; the event loops are ours alone and end with the process.
            try? group.syncShutdownGracefully()
            throw PhotoLibError.socketFailed(path: path, errno: (error as? IOError)?.errnoCode ?? (error as? SystemCallError)?.errno ?? EIO)
        }
    }

    /// Serves a connection accepted on an app's endpoint (see `EndpointSet`)
    /// on the same event loops as the main socket's.
    func adopt(_ fd: Int32, endpointOf app: AppID) {
        makeConnectionBootstrap(.endpoint(app)).withConnectedSocket(fd).whenFailure { [logger] error in
            logger.warning("Cannot serve a connection to the endpoint of \(app): \(error)")
        }
    }

    /// True when something accepts connections on `path`.
    private static func isLive(_ path: String) -> Bool {
        // A refused or failed connection is what "nothing serves there" looks like; the caller then binds.
        (try? UnixStreamSocket(connectingTo: path)) != nil
    }

    func close() {
        // At stop: a channel already closed (its loop shut down) is the state wanted.
        try? channel.close().wait()
        if !activated {
            do {
                try SocketFile.removeStale(path)
            } catch {
                // Left behind: harmless, as the next start replaces a stale socket; said, as it is not absent.
                logger.warning("Cannot remove the socket \(path) at stop: \(error); the next start replaces it.")
            }
        }
        // At stop, after every channel: a failure leaves threads the exiting process takes with it.
        try? group.syncShutdownGracefully()
    }
}
