import Glibc
import PhotoLibCore
import PhotoLibSystem

/// Open descriptors for directories inside one app's view, made on demand.
///
/// Every step is `openat(O_NOFOLLOW)` from the app's view root, so a symlink
/// planted in a view is never followed. Lives for one batch of changes.
final class ViewDirectories {
    let root: FileDescriptor
    /// Albums inside a view. The view's own directory (0700, or the app's ACL)
    /// is what keeps others out; under an ACL these group bits become the
    /// inherited mask, so the app may enter (r-x) and never write.
    static let subdirectoryMode: UInt32 = 0o750
    private var cache: [RelativePath: FileDescriptor] = [:]

    init(root: FileDescriptor) {
        self.root = root
    }

    deinit {
        invalidate()
        root.close()
    }

    /// The directory at `path`, created (with parents) when `create` is true; nil when
    /// it is not there (and not to be made). Any other failure is thrown, never taken
    /// for an absence: a view directory that cannot be opened may still hold entries
    /// that must go, so its caller reconciles the whole view instead.
    func directory(_ path: RelativePath, create: Bool) throws(SystemCallError) -> FileDescriptor? {
        if path.isRoot { return root }
        if let cached = cache[path] { return cached }
        guard let name = path.lastComponent, let parent = try directory(path.parent ?? .root, create: create) else { return nil }
        let fd: FileDescriptor
        do {
            if create { try Directory.makeDirectory(name, in: parent, mode: Self.subdirectoryMode) }
            fd = try Directory.open(name, in: parent)
        } catch where error.isNotFound && !create {
            return nil
        } catch where create && (error.errno == ENOTDIR || error.errno == EEXIST || error.errno == ELOOP) {
            // Something that is not a directory squats the name: clear it and make the directory, once.
            _ = try Directory.unlink(name, in: parent)
            try Directory.makeDirectory(name, in: parent, mode: Self.subdirectoryMode)
            fd = try Directory.open(name, in: parent)
        }
        if cache.count >= 256 { invalidate() }
        cache[path] = fd
        return fd
    }

    func invalidate() {
        for fd in cache.values { fd.close() }
        cache.removeAll()
    }
}
