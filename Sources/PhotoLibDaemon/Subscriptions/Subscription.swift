import NIOCore
import PhotoLibCore
import PhotoLibProtocol

/// One connection's subscription: live events for one app, or every app (admin).
///
/// All state lives on the connection's event loop. What is sent, held or
/// dropped is `SubscriberBacklog`'s rule: a subscriber that stops reading is
/// given at most `budgetBytes` of queued events, then one `reset` per app once
/// it has caught up; the daemon's memory for a stalled subscriber is bounded.
final class Subscription: @unchecked Sendable {
    // @unchecked: mutable state is touched only on `channel.eventLoop`.
    static let defaultBudgetBytes = 4 << 20

    let channel: any Channel
    /// nil: every app.
    let apps: Set<AppID>?
    /// Admin subscribers also get admin events (`request`), which carry no token.
    let isAdmin: Bool
    private var backlog: SubscriberBacklog<ByteBuffer>
    private let coder = MessageCoder()

    init(channel: any Channel, apps: Set<AppID>?, isAdmin: Bool, budgetBytes: Int = Subscription.defaultBudgetBytes) {
        self.channel = channel
        self.apps = apps
        self.isAdmin = isAdmin
        backlog = SubscriberBacklog(budgetBytes: budgetBytes)
    }

    func follows(_ app: AppID) -> Bool { apps?.contains(app) ?? true }

    /// Called by the hub on this subscription's event loop. `token` is nil for an admin event.
    func receiveOnLoop(app: AppID, token: Int64?, line: ByteBuffer) {
        channel.eventLoop.assertInEventLoop()
        receive(app: app, token: token, line: line)
    }

    /// Sends the subscribe reply and the resume delta, then events newer than `after`, then goes live.
    func activate(reply: [UInt8], delta: [[UInt8]], after: [AppID: Int64]) {
        channel.eventLoop.execute {
            self.send(ByteBuffer(bytes: reply))
            for line in delta { self.send(ByteBuffer(bytes: line)) }
            for (app, token, line) in self.backlog.goLive(after: after) {
                self.receive(app: app, token: token, line: line)
            }
        }
    }

    private func receive(app: AppID, token: Int64?, line: ByteBuffer) {
        if backlog.admit(app: app, token: token, line: line, size: line.readableBytes) { send(line) }
    }

    private func send(_ line: ByteBuffer) {
        let size = line.readableBytes
        backlog.sending(size: size)
        channel.writeAndFlush(line).whenComplete { _ in
            // The subscriber caught up after falling behind: tell it what it missed wholesale.
            for (app, token) in self.backlog.sent(size: size) {
                let reset = ResetEvent(app: app.rawValue, token: token, reason: "This subscriber fell behind and events were dropped; reload the view with list.")
                // A ResetEvent of a string and a number always encodes.
                if let line = try? self.coder.encodeLine(reset) { self.send(ByteBuffer(bytes: line)) }
            }
        }
    }
}
