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
///
/// Bound when made (before the first scan); `run` serves every connection, the
/// main socket's and the endpoints', as a child task of its own (an async channel,
/// as swift-nio intends), and returns once `stop` has closed the socket and every
/// connection and their tasks have ended. A stop closes, it does not cancel: see
/// `ConnectionArrivals` for why nothing accepted may be dropped.
final class SocketServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let listening: any Channel
    let path: String

    /// Whether the socket came from systemd (then systemd owns the file, and we leave it).
    private let activated: Bool
    /// Sets up a connection's channel as it is accepted (or adopted) and hands it to `run`.
    private let initialize: @Sendable (any Channel, PeerAdmission.Listener) -> EventLoopFuture<Void>
    private let handler: ConnectionHandler
    private let arrivals = ConnectionArrivals()
    private let logger: Logger

    /// Adopts the socket `passed` by systemd, or else binds `path` (replacing a
    /// stale socket file, refusing a live one).
    init(path: String, passed: Int32?, router: some ConnectionServing, limits: ConnectionLimits, logger: Logger,
         lineLimit: Int = LineFramer.defaultLimit) async throws {
        self.path = path
        self.logger = logger
        activated = passed != nil
        if passed == nil {
            if Self.isLive(path) { throw PhotoLibError.socketInUse(path: path) }
            do {
                try SocketFile.removeStale(path)
            } catch {
                throw PhotoLibError.systemCall(name: error.call, path: path, errno: error.errno)
            }
        }
        handler = ConnectionHandler(server: router, limits: limits, logger: logger)
        let idle = limits.settings.idleTimeoutSeconds
        initialize = { [arrivals] channel, listener in
            channel.eventLoop.makeCompletedFuture {
                try arrivals.arrive(channel, through: listener) {
                    try AcceptedConnection.configure(channel, idleTimeoutSeconds: idle, lineLimit: lineLimit,
                                                     errorLine: { router.errorLine($0, id: nil) }, logger: logger)
                }
            }
        }
        // More than one loop, so a connection pushing a huge line (up to the
        // 1 MiB limit) holds up only the connections on its own loop.
        group = MultiThreadedEventLoopGroup(numberOfThreads: min(4, max(2, System.coreCount)))
        let initialize = initialize
        let bootstrap = ServerBootstrap(group: group)
            // Room for a storm of connections at once (1,000 in scripts/load) while the loops accept:
            // a full backlog turns a non-blocking client's connect into EAGAIN.
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .childChannelInitializer { initialize($0, .main) }
        do {
            if let passed {
                listening = try await bootstrap.withBoundSocket(passed).get()
                logger.info("Listening on the socket passed by systemd.")
            } else {
                listening = try await bootstrap.bind(unixDomainSocketPath: path).get()
                // Anyone may connect; the peer's uid from SO_PEERCRED decides what it may do.
                try ProcessIdentity.setMode(path, 0o666)
            }
        } catch {
            // The error worth reporting is the bind's; the event loops are ours alone and end with the process.
            try? await group.shutdownGracefully()
            throw PhotoLibError.socketFailed(path: path, errno: (error as? IOError)?.errnoCode ?? (error as? SystemCallError)?.errno ?? EIO)
        }
    }

    /// Serves a connection accepted on an app's endpoint (see `EndpointSet`),
    /// on the same event loops as the main socket's, as a child of `run`.
    func adopt(_ fd: Int32, endpointOf app: AppID) {
        let initialize = initialize
        ClientBootstrap(group: group).channelInitializer { initialize($0, .endpoint(app)) }
            .withConnectedSocket(fd).whenFailure { [logger] error in
                logger.warning("Cannot serve a connection to the endpoint of \(app): \(error)")
            }
    }

    /// Serves every connection, each in a child task, until `stop` (or its task's cancellation); then removes
    /// the socket file and returns once every connection's task has ended.
    func run() async {
        await withDiscardingTaskGroup { connections in
            for await _ in arrivals.signals {
                for (connection, listener) in arrivals.take() {
                    connections.addTask { await self.serve(connection, listener: listener) }
                }
            }
            // Ended by `stop`, or by the cancellation of the daemon's services (another failed): the socket
            // is closed (before its event loops end: an accept on a loop shutting down drops its promise),
            // and what still waits is closed here, never dropped.
            await closeListening()
            arrivals.stop()
            for (connection, _) in arrivals.take() { await handler.close(connection) }
        }
        if !activated {
            do {
                try SocketFile.removeStale(path)
            } catch {
                // Left behind: harmless, as the next start replaces a stale socket; said, as it is not absent.
                logger.warning("Cannot remove the socket \(path) at stop: \(error); the next start replaces it.")
            }
        }
        do {
            try await group.shutdownGracefully()
        } catch {
            // At stop, after every channel: a failure leaves threads the exiting process takes with it.
            logger.debug("The socket's event loops did not shut down cleanly: \(error)")
        }
    }

    /// Stops accepting and closes every connection; `run` returns once their tasks have ended (one answering a
    /// request finishes that first, its reply going nowhere).
    func stop() {
        listening.close(promise: nil)
        arrivals.stop()
    }

    private func closeListening() async {
        do {
            try await listening.close()
        } catch ChannelError.alreadyClosed {
            // Closed by `stop`.
        } catch {
            logger.warning("Cannot close the socket \(path): \(error).")
        }
    }

    /// Serves one connection, known to `stop` meanwhile; one that arrives after the stop is closed at once.
    private func serve(_ connection: AcceptedConnection, listener: PeerAdmission.Listener) async {
        let channel = connection.channel.channel
        guard arrivals.serving(channel) else { return await handler.close(connection) }
        await handler.serve(connection, listener: listener)
        arrivals.served(channel)
    }

    /// True when something accepts connections on `path`.
    private static func isLive(_ path: String) -> Bool {
        // A refused or failed connection is what "nothing serves there" looks like; the caller then binds.
        (try? UnixStreamSocket(connectingTo: path)) != nil
    }
}
