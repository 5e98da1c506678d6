import PhotoLibCore
import PhotoLibSystem

/// Opens directories and stats files in the library, always from the root
/// descriptor and one `O_NOFOLLOW` component at a time.
///
/// A few recently used directory descriptors are cached for the length of a
/// batch (a burst of 10,000 files in one album then opens that album once).
/// The cache is emptied whenever a directory moves or goes, and at the end of
/// every batch, so a stale descriptor never outlives a rename.
final class LibraryAccess {
    private(set) var root: FileDescriptor
    private var cache: [RelativePath: FileDescriptor] = [:]
    private let cacheLimit = 64

    init(root: FileDescriptor) {
        self.root = root
    }

    deinit {
        invalidate()
        root.close()
    }

    /// An open descriptor for a library directory (owned by the cache: do not close it).
    func directory(_ path: RelativePath) -> FileDescriptor? {
        if path.isRoot { return root }
        if let cached = cache[path] { return cached }
        let parent = path.parent.flatMap(directory) ?? root
        guard let name = path.lastComponent, let fd = try? Directory.open(name, in: parent) else { return nil }
        if cache.count >= cacheLimit { invalidate() }
        cache[path] = fd
        return fd
    }

    /// `lstat` of a library entry; `nil` when it (or a directory above it) does not exist.
    func status(_ path: RelativePath) -> FileStatus? {
        guard let name = path.lastComponent, let parent = directory(path.parent ?? .root) else { return nil }
        return try? Directory.status(of: name, in: parent)
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
    }
}
