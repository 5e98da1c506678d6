import Glibc

/// Runs one piece of work on a thread of its own while the calling thread does another, and
/// returns once both have finished: for work that needs a core the caller leaves idle (the views'
/// open watches are placed while the views are checked, which uses one core of two).
public enum Alongside {
    /// Runs `side` on a new thread while `body` runs on this one; returns (or throws) what `body`
    /// did once `side` has finished too. When no thread can be made, `side` runs here, after `body`.
    public static func run<T>(_ side: @escaping @Sendable () -> Void, while body: () throws -> T) throws -> T {
        switch NewThread.make(side) {
        case .success(let thread):
            defer { pthread_join(thread, nil) }
            return try body()
        case .failure:
            defer { side() }
            return try body()
        }
    }
}
