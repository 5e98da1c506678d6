import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// The connections waiting for a person's answer, handed the protocol's outcome.
typealias RequestAnswers = AnswerBoard<RequestOutcome>

/// A connection waiting for its pick (`PickBoard`).
struct PickWaiter: ConnectionBound {
    let connection: ObjectIdentifier
    /// The peer's uid: an app on the owner's uid gets private copies (`PickPolicy.sharesOriginal`).
    let peerUID: UInt32
    /// False once the connection has closed.
    let isOpen: @Sendable () -> Bool
    /// Sends the reply line, with the descriptors (taken over: closed once
    /// sent); returns when the socket has taken them, throws when it cannot.
    let deliver: @Sendable (PickResult, [FileDescriptor]) async throws -> Void
}
