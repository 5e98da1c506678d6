import PhotoLibCore
import Synchronization

/// The requests one connection may have waiting for their replies (docs/PROTOCOL.md).
/// Past `maximumLines` lines the connection is read no more until its replies go
/// out (the async channel's backpressure); past `maximumBytes` bytes of them (a
/// few lines near the line limit) it is disconnected with `refusal`, rather than
/// buffered without limit.
///
/// Shared by the connection's event loop, which frames lines (`admit`), and the
/// task that answers them (`answered`).
public final class RequestBacklog: Sendable {
    public static var maximumLines: Int { 64 }
    /// At least two whole lines of the line limit, and never less than 4 MiB.
    public let maximumBytes: Int
    private let bytes = Atomic<Int>(0)

    public init(lineLimit: Int) {
        maximumBytes = max(4 << 20, 2 * lineLimit)
    }

    /// A line of `count` bytes is framed: false when it takes the connection past its bytes.
    public func admit(_ count: Int) -> Bool {
        bytes.add(count, ordering: .relaxed).newValue <= maximumBytes
    }

    /// A line of `count` bytes was answered.
    public func answered(_ count: Int) {
        bytes.subtract(count, ordering: .relaxed)
    }

    /// Whether a request of the connection's is framed and not yet answered: being worked on, or
    /// waiting its turn. The connection is then not idle, however long the work takes.
    public var hasRequestsInFlight: Bool { bytes.load(ordering: .relaxed) > 0 }

    /// What the client is told as it is disconnected.
    public var refusal: PhotoLibError {
        .malformedRequest("more than \(Self.maximumLines) requests or \(maximumBytes >> 20) MiB of them are waiting for replies; read replies before sending more")
    }

    /// Whether an idle connection is closed (nothing sent for the idle timeout):
    /// yes unless it listens (subscribed, waiting for an answer, or waiting for the reply to a
    /// request still being worked on), and always when it left a request line unfinished.
    /// A subscriber may stay silent for ever; a client whose request takes minutes is not idle.
    public static func closesWhenIdle(listening: Bool, unfinishedLine: Bool) -> Bool {
        !listening || unfinishedLine
    }
}
