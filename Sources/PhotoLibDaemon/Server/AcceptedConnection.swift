import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol

/// A connection's channel as its task serves it: request lines in, bytes out,
/// with what the idle rule and the passing of files need beside it.
struct AcceptedConnection: Sendable {
    let channel: NIOAsyncChannel<[UInt8], ByteBuffer>
    let activity: ConnectionActivity
    /// Passes files to the peer (a pick), in order with the channel's writes.
    let sender: DescriptorSender

    /// Builds a connection's pipeline, on its event loop: the descriptor sender nearest the socket
    /// (every write passes it), the idle timer, the framer, and the async channel the task reads.
    ///
    /// The async channel reads no more from the socket while `RequestBacklog.maximumLines` lines
    /// wait for their replies: a client that pipelines without reading is slowed, not buffered.
    static func configure(_ channel: any Channel, idleTimeoutSeconds: Int, lineLimit: Int,
                          errorLine: @escaping @Sendable (PhotoLibError) -> [UInt8], logger: Logger) throws -> AcceptedConnection {
        let activity = ConnectionActivity(lineLimit: lineLimit)
        let sender = DescriptorSender(logger: logger)
        try channel.pipeline.syncOperations.addHandlers(
            sender,
            IdleStateHandler(readTimeout: .seconds(Int64(idleTimeoutSeconds))),
            RequestFramer(lineLimit: lineLimit, activity: activity, errorLine: errorLine))
        let lines = try NIOAsyncChannel<[UInt8], ByteBuffer>(
            wrappingChannelSynchronously: channel,
            configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: RequestBacklog.maximumLines)))
        return AcceptedConnection(channel: lines, activity: activity, sender: sender)
    }
}
