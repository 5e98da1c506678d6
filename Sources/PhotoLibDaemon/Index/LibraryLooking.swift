import PhotoLibCore
import PhotoLibSystem

/// Where a batch's probe looks at the library: the disk, through `LibraryAccess`; in a test,
/// a stand-in that holds every look as a server that stopped answering would.
protocol LibraryLooking: AnyObject {
    /// An open descriptor for a library directory (owned by the looker: do not close it).
    func lookUpDirectory(_ path: RelativePath) -> Lookup<FileDescriptor>
    /// `statx` of a library entry, never following a symlink.
    func lookUp(_ path: RelativePath) -> Lookup<FileObservation>
}

extension LibraryLooking {
    /// A library directory's descriptor, or `nil` when it is gone or cannot be opened now.
    func directory(_ path: RelativePath) -> FileDescriptor? {
        if case .found(let fd) = lookUpDirectory(path) { return fd }
        return nil
    }
}

/// Makes the looker a probe uses, on the probe's thread, from a duplicate of the library's root
/// (which the looker owns and closes).
typealias LibraryLookerMaker = @Sendable (_ root: FileDescriptor) -> any LibraryLooking

extension LibraryAccess: LibraryLooking {
    /// A looker with descriptors of its own: its root is opened anew from `root` (a duplicate would
    /// share the index's read position), or is `root` itself when that cannot be done now.
    static let probing: LibraryLookerMaker = { root in
        guard let own = try? Directory.reopen(root) else { return LibraryAccess(root: root) }
        root.close()
        return LibraryAccess(root: own)
    }
}
