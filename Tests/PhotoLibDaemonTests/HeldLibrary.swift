import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibSystem
import Synchronization
import Testing

/// A library whose every look waits, as one on a mount whose server stopped answering,
/// while the test holds it: the stand-in for the system layer a batch's probe looks through.
final class HeldLibrary: Sendable {
    private let held = Atomic<Bool>(false)
    /// Only looks at this path wait, when set.
    private let only = Mutex<RelativePath?>(nil)
    private let waiting = Atomic<Int>(0)

    /// The probe's looker: the disk's, each look made to wait first while the library is held.
    var looker: LibraryLookerMaker {
        { [self] root in Looker(disk: LibraryAccess.probing(root), held: self) }
    }

    /// From now on every look (or only those at `path`) waits until `release`.
    func hold(at path: RelativePath? = nil) {
        only.withLock { $0 = path }
        held.store(true, ordering: .sequentiallyConsistent)
    }

    /// Lets every waiting look go on, and every later one through.
    func release() { held.store(false, ordering: .sequentiallyConsistent) }

    /// How many looks are waiting now.
    var waiters: Int { waiting.load(ordering: .sequentiallyConsistent) }

    /// A stand-in for a disk slow to take links: a batch's flight (`ViewMaintainer.beforeFlight`) waits here while held.
    var flight: @Sendable () -> Void {
        { [self] in pass(nil) }
    }

    fileprivate func pass(_ path: RelativePath?) {
        guard held.load(ordering: .sequentiallyConsistent), only.withLock({ $0 == nil || $0 == path }) else { return }
        waiting.add(1, ordering: .sequentiallyConsistent)
        // A poll, not a semaphore: a look that comes after `release` must never be held by a signal left over.
        while held.load(ordering: .sequentiallyConsistent) { usleep(1000) }
        waiting.subtract(1, ordering: .sequentiallyConsistent)
    }

    private final class Looker: LibraryLooking {
        let disk: any LibraryLooking
        let held: HeldLibrary

        init(disk: any LibraryLooking, held: HeldLibrary) {
            self.disk = disk
            self.held = held
        }

        func lookUpDirectory(_ path: RelativePath) -> Lookup<FileDescriptor> {
            held.pass(path)
            return disk.lookUpDirectory(path)
        }

        func lookUp(_ path: RelativePath) -> Lookup<FileObservation> {
            held.pass(path)
            return disk.lookUp(path)
        }
    }
}

/// Starts `work` and waits for it up to `seconds`: on the deadline the library is let go (so
/// nothing stays blocked) and the test fails naming `what`. The deadline is long: the whole suite
/// runs at once on two cores, and only an engine held by the library waits for ever.
func answered<Value: Sendable>(_ what: String, within seconds: Double = 60, releasing held: HeldLibrary,
                               _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let task = Task { try await work() }
    let done = Atomic<Bool>(false)
    Task { _ = try? await task.value; done.store(true, ordering: .sequentiallyConsistent) }
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !done.load(ordering: .sequentiallyConsistent), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    if !done.load(ordering: .sequentiallyConsistent) {
        held.release()
        Issue.record("\(what): no answer within \(seconds) s while the library did not answer")
    }
    return try await task.value
}
