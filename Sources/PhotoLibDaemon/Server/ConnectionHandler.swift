import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// One client connection: identify the peer, frame lines, answer them in order.
///
/// Requests are answered one at a time, in order, by a task that reads from a
/// bounded stream; how many may wait is `RequestBacklog`'s rule.
final class ConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: NIO calls every method on the channel's event loop; the
    // mutable state is touched only there.
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Requests framed but not yet answered; the reply task takes them off.
    private let backlog: RequestBacklog

    private let router: RequestRouter
    /// The socket this connection came through: the main one or an app's endpoint.
    private let listener: PeerAdmission.Listener
    private let logger: Logger
    private let limits: ConnectionLimits
    private var framer: LineFramer
    /// Set once the connection is being closed for a protocol error: bytes
    /// still arriving are dropped unread, not buffered and scanned again.
    private var refusing = false
    private var lines: AsyncStream<[UInt8]>.Continuation?
    private var connection: Connection?

    init(router: RequestRouter, listener: PeerAdmission.Listener, limits: ConnectionLimits, logger: Logger, lineLimit: Int) {
        self.router = router
        self.listener = listener
        self.limits = limits
        self.logger = logger
        framer = LineFramer(limit: lineLimit)
        backlog = RequestBacklog(lineLimit: lineLimit)
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        let credentials: EventLoopFuture<RawPeerCredentials> = provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: PeerSocketOption.credentials))
        let loop = context.eventLoop
        credentials.whenComplete { result in
            loop.assertInEventLoop()
            switch result {
            case .success(let peer):
                // SO_PEERPIDFD (Linux 6.5) pins the very peer process; where the
                // kernel lacks it, PeerProcess opens a pidfd from the pid instead.
                let pidfd: EventLoopFuture<CInt> = provider.unsafeGetSocketOption(
                    level: .socket, name: NIOBSDSocket.Option(rawValue: PeerSocketOption.pidfd))
                pidfd.whenComplete { pidfdResult in
                    loop.assertInEventLoop()
                    var peerPIDFD: CInt?
                    if case .success(let fd) = pidfdResult { peerPIDFD = fd }  // a failure: an older kernel
                    let sandbox = PeerProcess.sandbox(peerPIDFD: peerPIDFD, pid: peer.pid)
                    self.admit(uid: peer.uid, sandbox: sandbox, channel: channel)
                }
            case .failure(let error):
                self.logger.warning("Refusing a connection whose credentials could not be read: \(error)")
                channel.close(promise: nil)
            }
        }
        context.fireChannelActive()
    }

    private func admit(uid: UInt32, sandbox: SandboxIdentity, channel: any Channel) {
        let role: PeerRole
        switch router.role(listener: listener, uid: uid, sandbox: sandbox) {
        case .failure(let error):
            logger.notice("Refused a connection from uid \(uid): \(error.message)")
            refuse(channel, error)
            return
        case .success(let admitted):
            role = admitted
        }
        if let error = limits.admit(uid: uid, limitedPerUID: role != .admin) {
            logger.warning("Refused a connection from uid \(uid): \(error.message)")
            refuse(channel, error)
            return
        }
        let sender: DescriptorSender
        do {
            sender = try channel.pipeline.syncOperations.handler(type: DescriptorSender.self)
        } catch {
            logger.error("Refused a connection from uid \(uid): its pipeline has no descriptor sender (\(error)).")
            channel.close(promise: nil)
            return
        }
        let connection = Connection(channel: channel, uid: uid, role: role, hub: router.hub, sender: sender)
        self.connection = connection
        router.connections.add(connection)
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(RequestBacklog.maximumLines))
        lines = continuation
        channel.writeAndFlush(ByteBuffer(bytes: router.greeting(for: role)), promise: nil)
        let router = self.router
        let backlog = self.backlog
        Task {
            for await line in stream {
                // nil: a subscribe reply, already sent in order with its events.
                if let reply = await router.handle(line, connection: connection) {
                    do {
                        try await channel.writeAndFlush(ByteBuffer(bytes: reply))
                    } catch {
                        channel.close(promise: nil)  // the peer is gone: nothing more to answer
                    }
                }
                backlog.answered(line.count)
            }
        }
        drainFramer(channel: channel)
    }

    private func refuse(_ channel: any Channel, _ error: PhotoLibError) {
        channel.writeAndFlush(ByteBuffer(bytes: router.errorLine(error))).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { framer.append($0) }
        if connection != nil { drainFramer(channel: context.channel) }
    }

    private func drainFramer(channel: any Channel) {
        do {
            while let line = try framer.nextLine() {
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                var overflowed = !backlog.admit(line.count)
                if !overflowed, case .dropped = lines?.yield(line) { overflowed = true }
                if overflowed {
                    refusing = true
                    lines?.finish()
                    channel.writeAndFlush(ByteBuffer(bytes: router.errorLine(backlog.refusal))).whenComplete { _ in channel.close(promise: nil) }
                    return
                }
            }
        } catch {
            if case .lineTooLong(let limit) = error {
                refusing = true
                framer = LineFramer(limit: framer.limit)
                lines?.finish()
                channel.writeAndFlush(ByteBuffer(bytes: router.errorLine(.lineTooLong(limit: limit))))
                    .whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lines?.finish()
        lines = nil
        if let connection {
            connection.closed()
            router.engine.requests.answers.forget(connection: ObjectIdentifier(connection))
            if router.engine.requests.picks.isWaiting(ObjectIdentifier(connection)) {
                let engine = router.engine
                let id = ObjectIdentifier(connection)
                Task { await engine.withdrawPicks(of: id) }
            }
            router.connections.remove(connection)
            limits.release(uid: connection.uid)
            self.connection = nil
        }
        context.fireChannelInactive()
    }

    /// Closes half-open clients: nothing sent for the idle timeout while not
    /// subscribed or waiting for an answer or a reply, or a request line left unfinished
    /// that long. A subscriber may stay silent for ever: it only listens.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            // A connection waiting for the person's answer, or for the reply to long work, is listening too.
            let listening = connection.map {
                $0.isSubscribed || backlog.hasRequestsInFlight
                    || router.engine.requests.answers.isWaiting(ObjectIdentifier($0)) || router.engine.requests.picks.isWaiting(ObjectIdentifier($0))
            } ?? false
            if RequestBacklog.closesWhenIdle(listening: listening, unfinishedLine: framer.pendingByteCount > 0) {
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// `struct ucred` from `<sys/socket.h>`: pid, uid, gid.
struct RawPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
