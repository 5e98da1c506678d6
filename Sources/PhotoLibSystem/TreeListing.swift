import Glibc
public import PhotoLibCore
import Dispatch
import Synchronization

/// Lists a library's root and every album below it on several threads at once, for a full scan,
/// before its transaction opens: the walk is a `statx` per file, and each thread takes the next
/// directory waiting, so the cores list different directories rather than race for the same.
///
/// A directory that cannot be opened is in the result as it was found (`gone`, or `unreadable`
/// with why), never left out: a directory that cannot be read is not an empty one.
public enum TreeListing {
    /// A directory waiting to be listed: where it is, and its descriptor or why there is none.
    private typealias Waiting = (path: RelativePath, directory: Lookup<FileDescriptor>)

    private struct State {
        var waiting: [Waiting]
        /// Directories being listed now: the walk is over once none is and none waits.
        var listing = 0
        var listings: [RelativePath: Lookup<[DirectoryPlan.Entry]>] = [:]
    }

    /// Every listing, by path, from `root` (a descriptor this call closes) down through the
    /// directories `LibraryScope` counts as albums. `delivered` hears each listing as it is made,
    /// on the thread that made it and before the directories below it wait to be listed, so always
    /// after the listing of the directory it is in (a first scan writes its rows in parts as they come).
    public static func list(root: Lookup<FileDescriptor>, threads: Int,
                            list: @escaping @Sendable (FileDescriptor) -> Lookup<[DirectoryPlan.Entry]>,
                            delivered: @escaping @Sendable (RelativePath, Lookup<[DirectoryPlan.Entry]>) -> Void = { _, _ in })
        -> [RelativePath: Lookup<[DirectoryPlan.Entry]>] {
        let state = Mutex(State(waiting: [(.root, root)]))
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            while let next = take(from: state) {
                let (listing, children) = visit(next, list: list)
                delivered(next.path, listing)  // outside the lock; its children are not waiting yet
                state.withLock {
                    $0.listings[next.path] = listing
                    $0.waiting += children
                    $0.listing -= 1
                }
            }
        }
        return state.withLock { $0.listings }
    }

    /// The next directory to list; nil once the walk is over. Waits (briefly) while another
    /// thread lists a directory whose children may yet come.
    private static func take(from state: borrowing Mutex<State>) -> Waiting? {
        while true {
            let (next, over) = state.withLock { state -> (Waiting?, Bool) in
                if let next = state.waiting.popLast() {
                    state.listing += 1
                    return (next, false)
                }
                return (nil, state.listing == 0)
            }
            if let next { return next }
            if over { return nil }
            usleep(100)
        }
    }

    /// One directory's listing, and its album children opened (or why they could not be); closes it.
    private static func visit(_ waiting: Waiting, list: (FileDescriptor) -> Lookup<[DirectoryPlan.Entry]>)
        -> (Lookup<[DirectoryPlan.Entry]>, [Waiting]) {
        guard case .found(let directory) = waiting.directory else {
            switch waiting.directory {
            case .unreadable(let failure): return (.unreadable(failure), [])
            default: return (.gone, [])
            }
        }
        defer { directory.close() }
        let listing = list(directory)
        guard case .found(let entries) = listing else { return (listing, []) }
        var children: [Waiting] = []
        for entry in entries where LibraryScope.isAlbumName(entry.name) {
            guard case .directory = entry.kind else { continue }
            let path = waiting.path.appending(entry.name)
            do {
                children.append((path, .found(try Directory.open(entry.name, in: directory))))
            } catch {
                children.append((path, Lookup(failure: error.failure)))
            }
        }
        return (listing, children)
    }
}
