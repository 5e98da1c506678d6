/// Work that may block its thread for as long as the kernel keeps it there (a look at a
/// library whose server stopped answering), run on a thread of its own and awaited: the
/// caller's thread (one of Swift's few task threads, or the engine's) goes on with other
/// work meanwhile, and a call that never returns costs one idle thread, never the daemon.
public enum BlockingWork {
    /// Runs `body` on a new thread named `name` and returns what it returned. When no thread
    /// can be made (EAGAIN: out of threads or memory) it runs on the caller's thread: slower
    /// for others, the same answer.
    public static func run<Value: Sendable>(name: String, _ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            do {
                try DetachedThread.start(name: name) { continuation.resume(returning: body()) }
            } catch {
                continuation.resume(returning: body())
            }
        }
    }
}
