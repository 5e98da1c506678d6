import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// Serves one client connection, as a child task of the server's: identify the
/// peer, admit it, then answer its request lines one at a time, in order.
///
/// Everything a connection holds elsewhere (its subscription, its waits, its
/// place in the limits) is let go when its channel closes, at once, even while a
/// request of its is still being answered; the answer then goes nowhere.
struct ConnectionHandler: Sendable {
    let server: any ConnectionServing
    let limits: ConnectionLimits
    let logger: Logger

    /// Reads the peer's credentials from the socket (`SO_PEERCRED`, and `SO_PEERPIDFD` where the kernel has it),
    /// then serves it.
    func serve(_ accepted: AcceptedConnection, listener: PeerAdmission.Listener) async {
        await run(accepted) { lines, outbound in
            guard let (uid, sandbox) = await identify(accepted.channel.channel) else { return }
            try await answer(accepted, lines, outbound, listener: listener, uid: uid, sandbox: sandbox)
        }
    }

    /// Serves a peer whose identity is known: admits it or refuses it with an error line, then answers its requests.
    func serve(_ accepted: AcceptedConnection, listener: PeerAdmission.Listener, uid: UInt32, sandbox: SandboxIdentity) async {
        await run(accepted) { lines, outbound in
            try await answer(accepted, lines, outbound, listener: listener, uid: uid, sandbox: sandbox)
        }
    }

    /// Closes a connection the daemon will not serve (it is stopping), as every connection is closed: through its
    /// async channel, whose writer must be finished.
    func close(_ accepted: AcceptedConnection) async {
        await run(accepted) { _, _ in }
    }

    private typealias Lines = NIOAsyncChannelInboundStream<[UInt8]>
    private typealias Outbound = NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Runs `body` with the connection's lines and writer, then closes it.
    private func run(_ accepted: AcceptedConnection, _ body: (Lines, Outbound) async throws -> Void) async {
        do {
            try await accepted.channel.executeThenClose { lines, outbound in
                try await body(lines, outbound)
            }
        } catch {
            // The peer left, or was refused by the framer, or the daemon is stopping: its channel is closed
            // either way, and nothing is left to answer.
            logger.debug("A connection ended: \(error)")
        }
    }

    /// The peer's uid and sandbox, or nil (said in the log) when they cannot be read.
    private func identify(_ channel: any Channel) async -> (UInt32, SandboxIdentity)? {
        guard let provider = channel as? any SocketOptionProvider else {
            logger.error("Refusing a connection whose channel is not a socket.")
            return nil
        }
        let peer: RawPeerCredentials
        do {
            peer = try await provider.unsafeGetSocketOption(level: .socket, name: NIOBSDSocket.Option(rawValue: PeerSocketOption.credentials)).get()
        } catch {
            if channel.isActive {
                logger.warning("Refusing a connection whose credentials could not be read: \(error)")
            } else {
                logger.debug("A peer left before it could be identified: \(error)")
            }
            return nil
        }
        // SO_PEERPIDFD (Linux 6.5) pins the very peer process; where the kernel
        // lacks it (the call fails), PeerProcess opens a pidfd from the pid instead.
        var pidfd: CInt?
        do {
            pidfd = try await provider.unsafeGetSocketOption(level: .socket, name: NIOBSDSocket.Option(rawValue: PeerSocketOption.pidfd)).get()
        } catch {
            pidfd = nil  // an older kernel: the pid stands in
        }
        // Off the event loop: it reads the peer's /proc files.
        return (peer.uid, PeerProcess.sandbox(peerPIDFD: pidfd, pid: peer.pid))
    }

    /// Admits the peer or refuses it, then answers its lines in order until it leaves.
    private func answer(_ accepted: AcceptedConnection, _ lines: Lines, _ outbound: Outbound,
                        listener: PeerAdmission.Listener, uid: UInt32, sandbox: SandboxIdentity) async throws {
        let channel = accepted.channel.channel
        let role: PeerRole
        switch server.role(listener: listener, uid: uid, sandbox: sandbox) {
        case .failure(let error):
            logger.notice("Refused a connection from uid \(uid): \(error.message)")
            return try await refuse(channel, error)
        case .success(let admitted):
            role = admitted
        }
        if let error = limits.admit(uid: uid, limitedPerUID: role != .admin) {
            logger.warning("Refused a connection from uid \(uid): \(error.message)")
            return try await refuse(channel, error)
        }
        let connection = Connection(channel: channel, uid: uid, role: role, hub: server.hub, sender: accepted.sender)
        server.opened(connection)
        accepted.activity.admitted { [server] in connection.isSubscribed || server.awaitsPerson(connection) }
        channel.closeFuture.whenComplete { [server, limits] _ in
            connection.closed()
            server.closed(connection)
            limits.release(uid: uid)
        }
        do {
            try await outbound.write(ByteBuffer(bytes: server.greeting(for: role)))
            accepted.activity.greeted()
            for try await line in lines {
                if let reply = await server.handle(line, connection: connection) {
                    try await outbound.write(ByteBuffer(bytes: reply))
                }
                accepted.activity.backlog.answered(line.count)
            }
        } catch {
            await server.left(connection)
            throw error
        }
        await server.left(connection)
    }

    /// Tells a peer why it is not admitted; its connection is closed once the line is written (not merely queued,
    /// as the async writer's would be, and lost at the close).
    private func refuse(_ channel: any Channel, _ error: PhotoLibError) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: server.errorLine(error, id: nil)))
    }
}

/// `struct ucred` from `<sys/socket.h>`: pid, uid, gid.
struct RawPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
