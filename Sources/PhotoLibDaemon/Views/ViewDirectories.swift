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

    /// The directory at `path`, created (with parents) when `create` is true.
    func directory(_ path: RelativePath, create: Bool) -> FileDescriptor? {
        if path.isRoot { return root }
        if let cached = cache[path] { return cached }
        guard let name = path.lastComponent, let parent = directory(path.parent ?? .root, create: create) else { return nil }
        if create { try? Directory.makeDirectory(name, in: parent, mode: Self.subdirectoryMode) }
        guard let fd = try? Directory.open(name, in: parent) else {
            if create {
                // Something that is not a directory squats the name: clear it and retry once.
                _ = try? Directory.unlink(name, in: parent)
                try? Directory.makeDirectory(name, in: parent, mode: Self.subdirectoryMode)
                guard let retried = try? Directory.open(name, in: parent) else { return nil }
                cache[path] = retried
                return retried
            }
            return nil
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
