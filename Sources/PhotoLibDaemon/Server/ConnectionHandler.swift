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
        let channel = accepted.channel.channel
        guard let provider = channel as? any SocketOptionProvider else {
            logger.error("Refusing a connection whose channel is not a socket.")
            channel.close(promise: nil)
            return
        }
        let peer: RawPeerCredentials
        do {
            peer = try await provider.unsafeGetSocketOption(level: .socket, name: NIOBSDSocket.Option(rawValue: PeerSocketOption.credentials)).get()
        } catch {
            logger.warning("Refusing a connection whose credentials could not be read: \(error)")
            channel.close(promise: nil)
            return
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
        let sandbox = PeerProcess.sandbox(peerPIDFD: pidfd, pid: peer.pid)
        await serve(accepted, listener: listener, uid: peer.uid, sandbox: sandbox)
    }

    /// Serves a peer whose identity is known: admits it or refuses it with an error line, then answers its requests.
    func serve(_ accepted: AcceptedConnection, listener: PeerAdmission.Listener, uid: UInt32, sandbox: SandboxIdentity) async {
        let channel = accepted.channel.channel
        let role: PeerRole
        switch server.role(listener: listener, uid: uid, sandbox: sandbox) {
        case .failure(let error):
            logger.notice("Refused a connection from uid \(uid): \(error.message)")
            return await refuse(channel, error)
        case .success(let admitted):
            role = admitted
        }
        if let error = limits.admit(uid: uid, limitedPerUID: role != .admin) {
            logger.warning("Refused a connection from uid \(uid): \(error.message)")
            return await refuse(channel, error)
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
            try await accepted.channel.executeThenClose { lines, outbound in
                try await outbound.write(ByteBuffer(bytes: server.greeting(for: role)))
                for try await line in lines {
                    if let reply = await server.handle(line, connection: connection) {
                        try await outbound.write(ByteBuffer(bytes: reply))
                    }
                    accepted.activity.backlog.answered(line.count)
                }
            }
        } catch {
            // The peer left, or was refused by the framer, or the daemon is stopping: its channel is closed
            // either way, and nothing is left to answer.
            logger.debug("A connection of uid \(uid) ended: \(error)")
        }
        await server.left(connection)
    }

    /// Tells a peer why it is not admitted, then closes its connection.
    private func refuse(_ channel: any Channel, _ error: PhotoLibError) async {
        do {
            try await channel.writeAndFlush(ByteBuffer(bytes: server.errorLine(error, id: nil)))
        } catch {
            logger.debug("A refused peer left before it was told why: \(error)")
        }
        channel.close(promise: nil)
    }
}

/// `struct ucred` from `<sys/socket.h>`: pid, uid, gid.
struct RawPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
