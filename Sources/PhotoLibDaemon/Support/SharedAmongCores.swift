import Dispatch
import Glibc

/// Runs one independent piece of work per index on every core, each result in its
/// own slot, and returns the results in index order: for system calls on separate
/// names (links, clones, looks at entries), where one thread leaves a core idle.
enum SharedAmongCores {
    /// The cores this process may run on.
    static let activeCores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// `body(worker, index)` for every index below `count`, on up to `maximumWorkers`
    /// threads from `threshold` items on (fewer are not worth a second thread), else on this one.
    static func map<Result: Sendable>(count: Int, threshold: Int, maximumWorkers: Int, initial: Result,
                                      _ body: @escaping @Sendable (_ worker: Int, _ index: Int) -> Result) -> [Result] {
        let workers = count >= threshold ? max(1, min(activeCores, maximumWorkers)) : 1
        let slots = Slots(count: count, initial: initial)
        let run: @Sendable (Int) -> Void = { worker in
            var index = worker
            while index < count {
                slots.set(index, body(worker, index))
                index += workers
            }
        }
        if workers == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: run) }
        return slots.all
    }

    /// One slot per item, each written by exactly one worker and read after all have finished.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        // @unchecked: workers write disjoint indices; `concurrentPerform` returns only after every worker is done.
        private var slots: [Result]

        init(count: Int, initial: Result) { slots = Array(repeating: initial, count: count) }

        func set(_ index: Int, _ result: Result) { slots[index] = result }
        var all: [Result] { slots }
    }
}
