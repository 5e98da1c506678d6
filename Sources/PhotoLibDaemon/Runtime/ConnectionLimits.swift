import PhotoLibCore
import Synchronization

/// Counts connections, in all and per uid, against documented limits.
public final class ConnectionLimits: Sendable {
    public typealias Settings = ConnectionLimitSettings

    public let settings: Settings
    private let counts = Mutex<(total: Int, perUID: [UInt32: Int])>((0, [:]))

    public init(_ settings: Settings) {
        self.settings = settings
    }

    /// Counts a new connection; returns the error to send when it is over a limit.
    public func admit(uid: UInt32, limitedPerUID: Bool) -> PhotoLibError? {
        counts.withLock { counts in
            if counts.total >= settings.maxConnections {
                return .tooManyConnections(limit: settings.maxConnections, perUID: false)
            }
            if limitedPerUID, counts.perUID[uid, default: 0] >= settings.maxConnectionsPerUID {
                return .tooManyConnections(limit: settings.maxConnectionsPerUID, perUID: true)
            }
            counts.total += 1
            counts.perUID[uid, default: 0] += 1
            return nil
        }
    }

    public func release(uid: UInt32) {
        counts.withLock { counts in
            counts.total -= 1
            counts.perUID[uid, default: 1] -= 1
            if counts.perUID[uid] == 0 { counts.perUID[uid] = nil }
        }
    }
}
