import Glibc

/// Makes a pthread that runs a Swift closure: the one place a closure crosses `pthread_create`'s
/// C entry point (`DetachedThread` and `BackgroundThreads` start theirs here).
enum NewThread {
    /// The new thread, running `body`; or the error `pthread_create` returned (it sets no errno and
    /// is never interrupted): EAGAIN when the system is out of threads or memory.
    static func make(_ body: @escaping @Sendable () -> Void) -> Result<pthread_t, SystemCallError> {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let failed = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        guard failed == 0 else {
            box.release()
            return .failure(SystemCallError("pthread_create", errno: failed))
        }
        return .success(thread)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
