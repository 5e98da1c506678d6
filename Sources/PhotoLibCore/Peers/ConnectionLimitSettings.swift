/// The limits, with their documented defaults (config `[protocol]`).
public struct ConnectionLimitSettings: Sendable, Equatable {
    /// All connections at once.
    public var maxConnections = 4096
    /// Connections of one app uid at once (the daemon's own uid and root are not limited per uid).
    public var maxConnectionsPerUID = 256
    /// A connection that sends nothing for this long while it has no subscription,
    /// or leaves a request line unfinished for this long, is closed.
    public var idleTimeoutSeconds = 60

    public init() {}
}
