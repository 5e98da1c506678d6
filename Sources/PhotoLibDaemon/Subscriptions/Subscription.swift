import NIOCore
import PhotoLibCore
import PhotoLibProtocol

/// One connection's subscription: live events for one app, or every app (admin).
///
/// All state lives on the connection's event loop. A subscriber that stops
/// reading is given at most `budgetBytes` of queued events; past that, events
/// are dropped and, once its queue has drained, it gets one `reset` per app
/// (reload with `list`) and live events resume. The daemon's memory for a
/// stalled subscriber is therefore bounded by the budget.
final class Subscription: @unchecked Sendable {
    // @unchecked: mutable state is touched only on `channel.eventLoop`.
    static let defaultBudgetBytes = 4 << 20
    static let catchUpLimit = 10_000

    let channel: any Channel
    /// nil: every app.
    let apps: Set<AppID>?
    /// Admin subscribers also get admin events (`request`), which carry no token.
    let isAdmin: Bool
    private let budgetBytes: Int
    private let coder = MessageCoder()

    private enum State {
        /// Registered, but the resume delta has not been sent yet: live events wait here.
        case catchingUp([(AppID, Int64?, ByteBuffer)])
        case live
    }

    private var state: State = .catchingUp([])
    private var queuedBytes = 0
    /// Apps whose events were dropped, with the last dropped token.
    private var dropped: [AppID: Int64] = [:]

    init(channel: any Channel, apps: Set<AppID>?, isAdmin: Bool, budgetBytes: Int = Subscription.defaultBudgetBytes) {
        self.channel = channel
        self.apps = apps
        self.isAdmin = isAdmin
        self.budgetBytes = budgetBytes
    }

    func follows(_ app: AppID) -> Bool { apps?.contains(app) ?? true }

    /// Called by the hub from any thread. `token` is nil for an admin event.
    func offer(app: AppID, token: Int64?, line: ByteBuffer) {
        channel.eventLoop.execute { self.receive(app: app, token: token, line: line) }
    }

    /// Sends the subscribe reply and the resume delta, then events newer than `after`, then goes live.
    func activate(reply: [UInt8], delta: [[UInt8]], after: [AppID: Int64]) {
        channel.eventLoop.execute {
            self.send(ByteBuffer(bytes: reply))
            for line in delta { self.send(ByteBuffer(bytes: line)) }
            guard case .catchingUp(let waiting) = self.state else { return }
            self.state = .live
            // An admin event has no token: it is never part of the delta, so it is always new.
            for (app, token, line) in waiting where token.map({ $0 > (after[app] ?? 0) }) ?? true {
                self.receive(app: app, token: token, line: line)
            }
        }
    }

    private func receive(app: AppID, token: Int64?, line: ByteBuffer) {
        switch state {
        case .catchingUp(var waiting):
            if waiting.count >= Self.catchUpLimit {
                if let token { dropped[app] = token }
            } else {
                waiting.append((app, token, line))
            }
            state = .catchingUp(waiting)
        case .live:
            if !dropped.isEmpty || queuedBytes + line.readableBytes > budgetBytes {
                // A dropped admin event needs no reset: `requests` lists what is pending.
                if let token { dropped[app] = token }
                return
            }
            send(line)
        }
    }

    private func send(_ line: ByteBuffer) {
        let size = line.readableBytes
        queuedBytes += size
        channel.writeAndFlush(line).whenComplete { _ in
            self.queuedBytes -= size
            if !self.dropped.isEmpty, self.queuedBytes <= self.budgetBytes / 4 {
                self.sendResets()
            }
        }
    }

    /// The subscriber caught up after falling behind: tell it what it missed wholesale.
    private func sendResets() {
        let missed = dropped
        dropped = [:]
        for (app, token) in missed.sorted(by: { $0.key < $1.key }) {
            let reset = ResetEvent(app: app.rawValue, token: token, reason: "This subscriber fell behind and events were dropped; reload the view with list.")
            // A ResetEvent of a string and a number always encodes.
            if let line = try? coder.encodeLine(reset) { send(ByteBuffer(bytes: line)) }
        }
    }
}
