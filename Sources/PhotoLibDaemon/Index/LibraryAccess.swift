import PhotoLibCore
import PhotoLibSystem

/// Opens directories and stats files in the library, always from the root
/// descriptor and one `O_NOFOLLOW` component at a time.
///
/// Every answer says which of three things happened: found, gone, or cannot
/// be read now. The core's rules decide what each means; nothing here turns
/// an error into an absence.
///
/// A few recently used directory descriptors are cached for the length of a
/// batch (a burst of 10,000 files in one album then opens that album once).
/// The cache is emptied whenever a directory moves or goes, and at the end of
/// every batch, so a stale descriptor never outlives a rename.
final class LibraryAccess {
    private(set) var root: FileDescriptor
    private var cache: [RelativePath: FileDescriptor] = [:]
    /// Descriptors no longer looked up (`retire`), closed by the next `invalidate`.
    private var retired: [FileDescriptor] = []
    private let cacheLimit = 64

    init(root: FileDescriptor) {
        self.root = root
    }

    deinit {
        invalidate()
        root.close()
    }

    /// An open descriptor for a library directory (owned by the cache: do not close it).
    func lookUpDirectory(_ path: RelativePath) -> Lookup<FileDescriptor> {
        if path.isRoot { return .found(root) }
        if let cached = cache[path] { return .found(cached) }
        guard let name = path.lastComponent else { return .gone }
        let parent: FileDescriptor
        switch lookUpDirectory(path.parent ?? .root) {
        case .found(let fd): parent = fd
        case .gone: return .gone
        case .unreadable(let failure): return .unreadable(failure)
        }
        do {
            let fd = try Directory.open(name, in: parent)
            if cache.count >= cacheLimit { invalidate() }
            cache[path] = fd
            return .found(fd)
        } catch {
            return Lookup(failure: error.failure)
        }
    }

    /// `statx` of a library entry, never following a symlink.
    func lookUp(_ path: RelativePath) -> Lookup<FileObservation> {
        guard let name = path.lastComponent else {
            // The root itself, through its own descriptor (a round's look at it: has an entry come or gone?).
            do {
                return .found(try Directory.status(of: root).observation)
            } catch {
                return Lookup(failure: error.failure)
            }
        }
        switch lookUpDirectory(path.parent ?? .root) {
        case .found(let parent):
            do {
                return .found(try Directory.lookUp(name, in: parent).observation)
            } catch {
                return Lookup(failure: error.failure)
            }
        case .gone: return .gone
        case .unreadable(let failure): return .unreadable(failure)
        }
    }

    /// Replaces the root descriptor (the library came back after being moved or deleted).
    func replaceRoot(_ newRoot: FileDescriptor) {
        invalidate()
        root.close()
        root = newRoot
    }

    func invalidate() {
        for fd in cache.values { fd.close() }
        cache.removeAll()
        for fd in retired { fd.close() }
        retired.removeAll()
    }

    /// Stops handing out every cached descriptor (a directory moved or went, so a path may name
    /// another one now) without closing them yet: inside a write transaction, which makes no system
    /// call, they wait for the `invalidate` that ends the batch.
    func retire() {
        retired += cache.values
        cache.removeAll()
    }
}
