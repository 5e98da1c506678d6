import Glibc
public import PhotoLibCore
import Synchronization

/// Lists the library's directories on a thread of its own during a full scan,
/// ahead of the index, which meanwhile writes what it read before: the walk's
/// system calls (a `statx` per file) and the index's SQLite work then share
/// the two cores instead of taking turns.
///
/// A listing made ahead is a little older than one made when the index gets
/// there; that is safe for the same reason the scan is: the watches are in
/// place before it starts, so whatever changes after a listing has an event
/// that is applied after the scan. The index never waits: a directory not
/// listed yet, it lists itself. At most `limit` listings wait to be taken.
public final class ListingPrefetcher: @unchecked Sendable {
    // @unchecked: `state` is guarded by its Mutex; the rest is immutable.
    private struct State {
        var ready: [RelativePath: Lookup<[DirectoryPlan.Entry]>] = [:]
        /// Listed by the index itself: the walk lists it only to descend.
        var taken: Set<RelativePath> = []
        var stopped = false
        var hits = 0
        var misses = 0
        var finished = false
    }

    private let state = Mutex(State())
    private let limit: Int
    private let list: @Sendable (FileDescriptor) -> Lookup<[DirectoryPlan.Entry]>

    /// Starts walking from `root` (opened anew: a duplicate would share its read position
    /// with the index's own listings of the root, and a listing on either thread would move the other's).
    public init(root: FileDescriptor, limit: Int = 512, list: @escaping @Sendable (FileDescriptor) -> Lookup<[DirectoryPlan.Entry]>) throws(SystemCallError) {
        self.limit = limit
        self.list = list
        let start = try Directory.reopen(root)
        do {
            try DetachedThread.start { [self] in walk(from: start) }
        } catch {
            start.close()
            throw error
        }
    }

    /// The listing made ahead for `path`, or nil when the index should list it itself (it then will).
    public func take(_ path: RelativePath) -> Lookup<[DirectoryPlan.Entry]>? {
        state.withLock { state -> Lookup<[DirectoryPlan.Entry]>? in
            if let listing = state.ready.removeValue(forKey: path) {
                state.hits += 1
                return listing
            }
            state.misses += 1
            state.taken.insert(path)
            return nil
        }
    }

    /// How many listings the index took from the walk, and how many it made itself.
    public var taken: (made: Int, missed: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// Ends the walk (the scan is over); what it listed and nobody took is dropped.
    public func stop() {
        state.withLock {
            $0.stopped = true
            $0.ready = [:]
        }
    }

    private func walk(from root: FileDescriptor) {
        var pending: [(RelativePath, FileDescriptor)] = [(.root, root)]
        while let (path, directory) = pending.popLast() {
            defer { directory.close() }
            // Far enough ahead: wait (rarely, and briefly) for the index to take some, or for the scan to end.
            // A semaphore would do, but libdispatch traps when one is freed below its starting count,
            // which listings dropped at the scan's end would leave it.
            while state.withLock({ !$0.stopped && $0.ready.count >= limit }) { usleep(1_000) }
            if state.withLock({ $0.stopped }) { break }
            let listing = list(directory)
            state.withLock { state in
                guard !state.taken.contains(path), !state.stopped else { return }
                state.ready[path] = listing
            }
            guard case .found(let entries) = listing else { continue }
            for entry in entries where LibraryScope.isAlbumName(entry.name) {
                guard case .directory = entry.kind else { continue }
                // Not openable now: the index finds out for itself when it gets there.
                guard let child = try? Directory.open(entry.name, in: directory) else { continue }
                pending.append((path.appending(entry.name), child))
            }
        }
        for (_, directory) in pending { directory.close() }
        state.withLock { $0.finished = true }
    }

    /// Whether the walk has ended (everything listed, or stopped).
    public var hasFinished: Bool { state.withLock { $0.finished } }
}
