/// Tells the place finder that files may wait to be looked at: after a scan, and after each
/// change that indexed new or edited files. Signals while it is busy come to one more pass.
final class PlaceWake: Sendable {
    let signals: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func signal() { continuation.yield() }

    func finish() { continuation.finish() }
}
