import Foundation

/// Runs a blocking call (a client waiting on its socket for the person's answer) on a thread of its own,
/// as a task whose `value` is awaited.
///
/// Not `Task.detached`: that runs on Swift's cooperative pool, which has one thread per core. On
/// two cores, a call blocked there for a minute and one more blocking moment elsewhere stall every
/// test in the process, including the one that was to answer the call.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> Task<T, any Error> {
    Task {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
