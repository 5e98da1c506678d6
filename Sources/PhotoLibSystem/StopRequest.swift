import CSystemShims

/// Whether the daemon was asked to stop (SIGTERM or SIGINT, caught by `TerminationSignals`),
/// for long work to stop at a safe point instead of running on past systemd's stop timeout.
///
/// Long loops (a scan, a view's reconcile, a big link batch, the places pass) call
/// `checkpoint()` between units of work: what they have done is consistent, the rest is
/// derived state that the next start finishes.
public enum StopRequest {
    /// True once SIGTERM or SIGINT was caught. An async-signal-safe read of what the handler recorded.
    public static var isRequested: Bool { photolibd_caught_termination_signal() != 0 }

    /// Throws `.stopping` once a stop was asked for.
    public static func checkpoint() throws(StopRequested) {
        if isRequested { throw StopRequested() }
    }
}

/// Long work stopped because the daemon is stopping (SIGTERM): not a failure of the work.
public struct StopRequested: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "photolibd is stopping" }
}
