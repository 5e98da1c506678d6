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
/// Bound when made (before the first scan); `run` serves every connection as a
/// child task of its own, so that a stop (its cancellation) ends them all and
/// waits for them, as swift-nio's async channels intend.
final class SocketServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let listening: NIOAsyncChannel<AcceptedConnection, Never>
    let path: String

    /// Whether the socket came from systemd (then systemd owns the file, and we leave it).
    private let activated: Bool
    private let initialize: @Sendable (any Channel) -> EventLoopFuture<AcceptedConnection>
    private let handler: ConnectionHandler
    /// Connections accepted on the apps' endpoints (`adopt`), served by `run`.
    private let adopted: AsyncStream<(fd: Int32, app: AppID)>
    private let adopting: AsyncStream<(fd: Int32, app: AppID)>.Continuation
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
        (adopted, adopting) = AsyncStream.makeStream(of: (fd: Int32, app: AppID).self)
        let idle = limits.settings.idleTimeoutSeconds
        initialize = { channel in
            channel.eventLoop.makeCompletedFuture {
                try AcceptedConnection.configure(channel, idleTimeoutSeconds: idle, lineLimit: lineLimit,
                                                 errorLine: { router.errorLine($0, id: nil) }, logger: logger)
            }
        }
        // More than one loop, so a connection pushing a huge line (up to the
        // 1 MiB limit) holds up only the connections on its own loop.
        group = MultiThreadedEventLoopGroup(numberOfThreads: min(4, max(2, System.coreCount)))
        let bootstrap = ServerBootstrap(group: group)
            // Room for a storm of connections at once (1,000 in scripts/load) while the loops accept:
            // a full backlog turns a non-blocking client's connect into EAGAIN.
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
        do {
            if let passed {
                listening = try await bootstrap.bind(passed, childChannelInitializer: initialize)
                logger.info("Listening on the socket passed by systemd.")
            } else {
                listening = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initialize)
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
        if case .terminated = adopting.yield((fd, app)) {
            FileDescriptor(rawValue: fd).close()  // stopping: nobody serves it
        }
    }

    /// Serves every connection, each in a child task, until cancelled (the stop); then closes the
    /// socket and every connection, and returns once their tasks have ended.
    func run() async {
        await withDiscardingTaskGroup { sources in
            sources.addTask { await self.serveMain() }
            sources.addTask { await self.serveEndpoints() }
        }
        adopting.finish()
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

    private func serveMain() async {
        do {
            try await listening.executeThenClose { accepted in
                try await withThrowingDiscardingTaskGroup { connections in
                    for try await connection in accepted {
                        connections.addTask { await self.handler.serve(connection, listener: .main) }
                    }
                }
            }
        } catch is CancellationError {
            // The stop.
        } catch {
            logger.error("The socket \(path) stopped accepting connections: \(error)")
        }
    }

    private func serveEndpoints() async {
        await withDiscardingTaskGroup { connections in
            for await (fd, app) in adopted {
                connections.addTask {
                    let connection: AcceptedConnection
                    do {
                        connection = try await ClientBootstrap(group: self.group).withConnectedSocket(fd, channelInitializer: self.initialize)
                    } catch {
                        self.logger.warning("Cannot serve a connection to the endpoint of \(app): \(error)")
                        return
                    }
                    await self.handler.serve(connection, listener: .endpoint(app))
                }
            }
        }
    }

    /// True when something accepts connections on `path`.
    private static func isLive(_ path: String) -> Bool {
        // A refused or failed connection is what "nothing serves there" looks like; the caller then binds.
        (try? UnixStreamSocket(connectingTo: path)) != nil
    }
}
