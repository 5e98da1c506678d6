/// Where the time of day comes from: the system's in the daemon, a set one in tests.
///
/// Grant ends, request times, the access report and import quotas all read
/// it through here, so a rule that depends on the time can be tested without
/// waiting for it.
public protocol WallClock: Sendable {
    /// Seconds since the Unix epoch.
    func now() -> Int64
    /// Milliseconds since the Unix epoch, for waits that end at a given second.
    func nowMilliseconds() -> Int64
}

extension WallClock {
    public func nowMilliseconds() -> Int64 { now() * 1000 }
}
