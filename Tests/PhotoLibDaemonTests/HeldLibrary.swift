import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibSystem
import Synchronization

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

    fileprivate func pass(_ path: RelativePath) {
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
