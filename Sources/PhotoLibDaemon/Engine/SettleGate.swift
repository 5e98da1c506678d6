/// Held by a watch batch between its commit and its settle while it waits, holding no thread, for
/// the last batch's links (`LinkFlight`): no other change starts then, or it would settle between
/// the two and touch the views before the batch it follows.
struct SettleGate {
    private(set) var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    mutating func hold() {
        precondition(!held, "one batch at a time is between its commit and its settle")
        held = true
    }

    /// Waits for the gate to be released (`release` resumes every waiter; each looks again).
    mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        waiting.append(continuation)
    }

    mutating func release() {
        held = false
        let resumed = waiting
        waiting = []
        for waiter in resumed { waiter.resume() }
    }
}
