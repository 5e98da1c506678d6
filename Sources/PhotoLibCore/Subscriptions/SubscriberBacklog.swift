/// What one subscription does with each event: the rule that bounds the daemon's
/// memory for a subscriber that stops reading (SPEC §6, docs/PROTOCOL.md).
///
/// A new subscription first catches up (its resume delta is read from the log)
/// while live events wait, at most `catchUpLimit` of them. Once live, an event
/// is sent unless `budgetBytes` are already queued for the socket; past that,
/// events are dropped, remembering each app's last dropped token, and once the
/// queue has drained to a quarter of the budget the subscriber is told, one
/// `reset` per app, to reload. Live events resume after the resets. An admin
/// event (no token) that is dropped needs no reset: `requests` lists what is pending.
///
/// `Line` is the encoded event; the executor sends what this returns, in order.
public struct SubscriberBacklog<Line> {
    public static var catchUpLimit: Int { 10_000 }

    public let budgetBytes: Int
    /// Events waiting for the resume delta to be sent, in order: nil once live.
    private var waiting: [(app: AppID, token: Int64?, line: Line)]? = []
    /// Bytes handed to the socket and not yet written.
    public private(set) var queuedBytes = 0
    /// Apps whose events were dropped, with the last dropped token.
    private var dropped: [AppID: Int64] = [:]

    public init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    public var isLive: Bool { waiting == nil }

    /// An event for this subscriber: true when it is to be sent now; false when it
    /// waits for the catch-up, or is dropped.
    public mutating func admit(app: AppID, token: Int64?, line: Line, size: Int) -> Bool {
        guard var queue = waiting else {
            if !dropped.isEmpty || queuedBytes + size > budgetBytes {
                if let token { dropped[app] = token }
                return false
            }
            return true
        }
        if queue.count >= Self.catchUpLimit {
            if let token { dropped[app] = token }
        } else {
            queue.append((app, token, line))
        }
        waiting = queue
        return false
    }

    /// The resume delta, everything up to `after`, has been sent: the subscriber
    /// is live, and these waiting events, newer than the delta, are to be admitted
    /// again in order. An admin event has no token and is never in the delta, so it is always new.
    public mutating func goLive(after: [AppID: Int64]) -> [(app: AppID, token: Int64?, line: Line)] {
        guard let queue = waiting else { return [] }
        waiting = nil
        return queue.filter { entry in entry.token.map { $0 > (after[entry.app] ?? 0) } ?? true }
    }

    /// A line of `size` bytes is handed to the socket.
    public mutating func sending(size: Int) {
        queuedBytes += size
    }

    /// A line of `size` bytes was written (or failed): the resets to send now, by
    /// app with its last dropped token, once the queue has drained after drops.
    public mutating func sent(size: Int) -> [(app: AppID, token: Int64)] {
        queuedBytes -= size
        guard !dropped.isEmpty, queuedBytes <= budgetBytes / 4 else { return [] }
        let missed = dropped.sorted { $0.key < $1.key }.map { (app: $0.key, token: $0.value) }
        dropped = [:]
        return missed
    }
}
