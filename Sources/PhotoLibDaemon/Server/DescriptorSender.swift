import Glibc
import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// Passes open files to a connection's peer (`SCM_RIGHTS`), in order with
/// everything else written to it.
///
/// SwiftNIO cannot attach descriptors to a stream channel's writes, so the
/// line that carries them is sent with `sendmsg` on the connection's own
/// descriptor, beside NIO. NIO does not tell that descriptor either; it does
/// read any socket option, so the socket's `SO_COOKIE` (unique while the
/// system runs) is read through it, and the descriptor holding that socket
/// found among the process's (`DescriptorPassing.descriptor(ofSocket:)`):
/// on the channel's loop, where the channel cannot close meanwhile, so the
/// number stays its own. That is safe only while NIO has nothing of its own
/// in flight, or the bytes would interleave. So this handler sits nearest the
/// socket, where every write passes: for a transfer it first holds back new
/// writes, then lets the ones already past it drain (a flushed empty write
/// completes only after every write before it), checks that NIO's buffer is
/// empty, sends the line and its descriptors (`DescriptorFraming`), writes
/// through NIO whatever part of the line the socket did not take, and only
/// then releases the held writes, in their order. Everything runs on the
/// channel's event loop, so nothing can slip in between.
final class DescriptorSender: ChannelOutboundHandler, @unchecked Sendable {
    // @unchecked: NIO calls every method on the channel's event loop, and
    // `send` hops there first; the mutable state is touched only there.
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a peer that reads nothing may keep a transfer waiting before its connection is closed.
    static let stallLimit: TimeAmount = .seconds(30)

    private struct Transfer {
        let line: [UInt8]
        let descriptors: [PhotoLibSystem.FileDescriptor]
        let promise: EventLoopPromise<Void>
    }

    private let logger: Logger
    /// The connection's descriptor, found at the first transfer.
    private var socket: Int32?
    private var context: ChannelHandlerContext?
    /// Which write goes when (`TransferGate`'s rule).
    private var gate = TransferGate<(data: NIOAny, promise: EventLoopPromise<Void>?), Transfer>()

    init(logger: Logger) {
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failAll(ChannelError.ioOnClosedChannel)
        self.context = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let write = gate.write((data, promise)) { context.write(write.data, promise: write.promise) }
    }

    func flush(context: ChannelHandlerContext) {
        if gate.flush() { context.flush() }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        failAll(ChannelError.ioOnClosedChannel)
        context.close(mode: mode, promise: promise)
    }

    /// Sends `line` with `descriptors` attached; takes them over and closes
    /// them once sent (the peer holds its own duplicates) or on failure.
    func send(line: [UInt8], descriptors: [PhotoLibSystem.FileDescriptor], on loop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        loop.execute {
            guard self.context != nil else {
                for fd in descriptors { fd.close() }
                promise.fail(ChannelError.ioOnClosedChannel)
                return
            }
            if let transfer = self.gate.enqueue(Transfer(line: line, descriptors: descriptors, promise: promise)) { self.start(transfer) }
        }
        return promise.futureResult
    }

    private func start(_ transfer: Transfer) {
        guard let context else { return finish(.failure(ChannelError.ioOnClosedChannel)) }
        // Completes once every write that passed here before is written.
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { result in
            switch result {
            case .failure(let error): self.finish(.failure(error))
            case .success:
                self.findSocket { found in
                    switch found {
                    case .failure(let error): self.finish(.failure(error))
                    case .success: self.transmit(transfer, messages: nil, index: 0, deadline: .now() + Self.stallLimit, pause: .milliseconds(1))
                    }
                }
            }
        }
    }

    /// Finds the connection's descriptor by its socket's cookie, once.
    private func findSocket(_ then: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        if socket != nil { return then(.success(())) }
        guard let context, let provider = context.channel as? any SocketOptionProvider else {
            return then(.failure(ChannelError.ioOnClosedChannel))
        }
        let cookie: EventLoopFuture<UInt64> = provider.unsafeGetSocketOption(level: .socket, name: NIOBSDSocket.Option(rawValue: PeerSocketOption.cookie))
        cookie.whenComplete { result in
            switch result {
            case .failure(let error):
                then(.failure(error))
            case .success(let cookie):
                do {
                    self.socket = try DescriptorPassing.descriptor(ofSocket: cookie)
                    then(.success(()))
                } catch let failure as SystemCallError {
                    then(.failure(IOError(errnoCode: failure.errno, reason: failure.call)))
                } catch {
                    then(.failure(error))
                }
            }
        }
    }

    /// Sends message `index` of the transfer and the ones after it; a socket
    /// that is full (the peer is not reading) is tried again a little later.
    private func transmit(_ transfer: Transfer, messages planned: [DescriptorFraming.Message]?, index: Int, deadline: NIODeadline, pause: TimeAmount) {
        guard let context, let socket else { return finish(.failure(ChannelError.ioOnClosedChannel)) }
        let buffered: Int
        do {
            buffered = try context.channel.syncOptions?.getOption(.bufferedWritableBytes) ?? 0
        } catch {
            return finish(.failure(error))  // closed meanwhile
        }
        guard buffered == 0 else {
            // Written meanwhile by this handler's own caller: let it drain first.
            context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in
                self.transmit(transfer, messages: planned, index: index, deadline: deadline, pause: pause)
            }
            return
        }
        guard let messages = planned ?? DescriptorFraming.messages(lineLength: transfer.line.count, descriptorCount: transfer.descriptors.count) else {
            return finish(.failure(ChannelError.writeMessageTooLarge))
        }
        var index = index
        while index < messages.count {
            let message = messages[index]
            let bytes = transfer.line[message.bytes]
            let fds = transfer.descriptors[message.descriptors].map(\.rawValue)
            let sent: Int
            do {
                sent = try DescriptorPassing.send(bytes, descriptors: fds, on: socket)
            } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                guard NIODeadline.now() < deadline else {
                    logger.notice("Closing a connection that read nothing for \(Self.stallLimit.nanoseconds / 1_000_000_000) s while files were handed to it.")
                    context.close(promise: nil)
                    return finish(.failure(ChannelError.ioOnClosedChannel))
                }
                let next = index
                context.eventLoop.scheduleTask(in: pause) {
                    self.transmit(transfer, messages: messages, index: next, deadline: deadline, pause: min(pause * 2, .milliseconds(100)))
                }
                return
            } catch {
                context.close(promise: nil)
                return finish(.failure(IOError(errnoCode: error.errno, reason: "sendmsg")))
            }
            if sent < bytes.count {
                // The descriptors went with the first byte; the rest of this
                // message's bytes go through NIO, before anything held back.
                let rest = Array(bytes.dropFirst(sent))
                if index == messages.count - 1 {
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: rest))).whenComplete { self.finish($0) }
                    return
                }
                // A one-byte message is all or nothing, so this cannot happen; stay correct anyway.
                let next = index + 1
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: rest))).whenComplete { _ in
                    self.transmit(transfer, messages: messages, index: next, deadline: deadline, pause: pause)
                }
                return
            }
            index += 1
        }
        finish(.success(()))
    }

    private func finish(_ result: Result<Void, any Error>) {
        let ending = gate.finish()
        guard let transfer = ending.ended else { return }
        for fd in transfer.descriptors { fd.close() }
        // The writes held during the transfer go through, in their order, before the next one starts.
        if let context {
            for write in ending.released { context.write(write.data, promise: write.promise) }
            if ending.flush { context.flush() }
        } else {
            for write in ending.released { write.promise?.fail(ChannelError.ioOnClosedChannel) }
        }
        transfer.promise.completeWith(result)
        if let next = ending.next { start(next) }
    }

    private func failAll(_ error: any Error) {
        let (transfers, writes) = gate.close()
        for transfer in transfers {
            for fd in transfer.descriptors { fd.close() }
            transfer.promise.fail(error)
        }
        for write in writes { write.promise?.fail(error) }
    }
}
