/// The order of a connection's writes while files are handed over on it
/// (`SCM_RIGHTS`, beside the connection's own writer): the rule that keeps a
/// line carrying descriptors from interleaving with anything else.
///
/// Transfers go one at a time, in the order asked. While one is under way,
/// every other write (and flush) is held back; when it ends, the held writes
/// are let through in their order, then the next transfer starts. When the
/// connection closes, everything waiting fails. The executor (the channel
/// handler) does what each call returns, on the connection's one thread.
public struct TransferGate<Write, Transfer> {
    private var waiting: [Transfer] = []
    /// The transfer under way, if any.
    public private(set) var current: Transfer?
    private var held: [Write] = []
    private var flushHeld = false

    public init() {}

    /// Whether writes are held back now.
    public var isHolding: Bool { current != nil }

    /// A write: returned to pass on now, or held (nil) while a transfer is under way.
    public mutating func write(_ write: Write) -> Write? {
        guard current != nil else { return write }
        held.append(write)
        return nil
    }

    /// A flush: true to pass on now; a flush during a transfer is done when it ends.
    public mutating func flush() -> Bool {
        guard current != nil else { return true }
        flushHeld = true
        return false
    }

    /// A transfer is asked for; returns the one to start now, if the gate was idle.
    public mutating func enqueue(_ transfer: Transfer) -> Transfer? {
        waiting.append(transfer)
        return startNext()
    }

    /// What ending the current transfer lets through.
    public struct Ending {
        /// The transfer that ended (nil when none was under way).
        public let ended: Transfer?
        /// Writes held during it, to pass on in this order.
        public let released: [Write]
        /// Whether a flush was asked for meanwhile (pass it on after the writes).
        public let flush: Bool
        /// The next transfer to start, after the writes.
        public let next: Transfer?
    }

    /// The current transfer ended (sent, or failed).
    public mutating func finish() -> Ending {
        guard let ended = current else { return Ending(ended: nil, released: [], flush: false, next: nil) }
        current = nil
        let released = held
        let flush = flushHeld
        held = []
        flushHeld = false
        return Ending(ended: ended, released: released, flush: flush, next: startNext())
    }

    /// The connection closed: every transfer not yet done and every held write, to fail.
    public mutating func close() -> (transfers: [Transfer], writes: [Write]) {
        let transfers = (current.map { [$0] } ?? []) + waiting
        let writes = held
        current = nil
        waiting = []
        held = []
        flushHeld = false
        return (transfers, writes)
    }

    private mutating func startNext() -> Transfer? {
        guard current == nil, !waiting.isEmpty else { return nil }
        current = waiting.removeFirst()
        return current
    }
}
