import Synchronization

/// How far the long work of one request is: counted where the work is done, read by the
/// request's connection, which reports it (`ProgressEvent`) while the reply is not ready.
///
/// Found through a task-local, so the loops that do long work (a view's reconcile) count
/// without every call between the request and them carrying it; work done for no request
/// (the start-up reconcile) finds none and counts nothing.
final class WorkProgress: Sendable {
    /// The progress of the request whose task this is, if any.
    @TaskLocal static var current: WorkProgress?

    /// What is done so far, of how much, at which stage.
    struct Snapshot: Equatable, Sendable {
        var stage = ""
        var done = 0
        var total = 0
    }

    private let state = Mutex(Snapshot())
    /// Read instead of the counts when set: work counted elsewhere (a rescan's files, on the scan's own task).
    private let source: (@Sendable () -> Snapshot)?

    init(source: (@Sendable () -> Snapshot)? = nil) {
        self.source = source
    }

    /// A stage of `total` units begins (a view's files); what earlier stages counted is kept out of it.
    func begin(_ stage: String, total: Int) {
        state.withLock { $0 = Snapshot(stage: stage, done: 0, total: total) }
    }

    /// `count` more units are done.
    func advance(by count: Int = 1) {
        state.withLock { $0.done += count }
    }

    var snapshot: Snapshot { source?() ?? state.withLock { $0 } }
}
