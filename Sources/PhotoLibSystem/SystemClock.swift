import Glibc
public import PhotoLibCore

/// The system's time of day (`time(2)`, which cannot fail with a valid argument).
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Int64 { Int64(time(nil)) }
}
