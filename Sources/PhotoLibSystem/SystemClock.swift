import CSystemShims
import Glibc
public import PhotoLibCore

/// The system's time of day (`time(2)` and `clock_gettime(2)` on `CLOCK_REALTIME`,
/// neither of which can fail with valid arguments).
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Int64 { Int64(time(nil)) }

    public func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000)
    }
}
