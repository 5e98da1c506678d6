import NIOCore
import PhotoLibCore
import PhotoLibProtocol

/// Cuts a connection's bytes into request lines, and refuses what the protocol
/// bounds (docs/PROTOCOL.md, "Limits"): a line over the line limit, and more
/// bytes of requests waiting for replies than `RequestBacklog` allows. A refusal
/// is one error line, then the connection is closed; bytes that still arrive are
/// dropped unread, not buffered and scanned again.
///
/// It also applies the idle rule: a connection silent for the idle timeout is
/// closed unless it listens (`ConnectionActivity`), and always when it left a
/// request line unfinished.
final class RequestFramer: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: NIO calls every method on the channel's event loop; the mutable state is touched only there.
    typealias InboundIn = ByteBuffer
    typealias InboundOut = [UInt8]
    typealias OutboundOut = ByteBuffer

    private var framer: LineFramer
    private var refusing = false
    private let activity: ConnectionActivity
    private let errorLine: @Sendable (PhotoLibError) -> [UInt8]

    init(lineLimit: Int, activity: ConnectionActivity, errorLine: @escaping @Sendable (PhotoLibError) -> [UInt8]) {
        framer = LineFramer(limit: lineLimit)
        self.activity = activity
        self.errorLine = errorLine
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { framer.append($0) }
        do {
            while let line = try framer.nextLine() {
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                guard activity.backlog.admit(line.count) else {
                    activity.backlog.answered(line.count)  // never passed on, so never answered
                    return refuse(activity.backlog.refusal, context: context)
                }
                context.fireChannelRead(wrapInboundOut(line))
            }
        } catch {
            if case .lineTooLong(let limit) = error { refuse(.lineTooLong(limit: limit), context: context) }
        }
    }

    private func refuse(_ error: PhotoLibError, context: ChannelHandlerContext) {
        refusing = true
        framer = LineFramer(limit: framer.limit)  // what was buffered is not wanted any more
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: errorLine(error)))).whenComplete { _ in channel.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read,
           RequestBacklog.closesWhenIdle(listening: activity.isListening, unfinishedLine: framer.pendingByteCount > 0) {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A socket error (a reset peer, say): the connection is over; the task answering it sees it end.
        context.close(promise: nil)
    }
}
