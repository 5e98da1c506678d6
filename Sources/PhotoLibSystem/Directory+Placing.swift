import Glibc
public import PhotoLibCore

// Placing files under names nobody else holds, and opening directories that may be gone or not made yet.
extension Directory {
    /// Renames `name` in `source` into `target` under the first of `candidates` (1, 2, …)
    /// that is free, never replacing a file (`renameat2(RENAME_NOREPLACE)`); `announce`
    /// hears each name before it is tried. Nil when `name` is gone.
    public static func renameToFreeName(
        _ name: FileName, in source: FileDescriptor, into target: FileDescriptor, candidates: (Int) -> FileName,
        attempts: Int = 10_000, announce: (FileName) throws -> Void = { _ in }
    ) throws -> FileName? {
        for attempt in 1...attempts {
            let candidate = candidates(attempt)
            try announce(candidate)
            // The outcome as a value: a `catch where` here crashes Swift 6.3.1's compiler (MandatoryAllocBoxToStack).
            let outcome = Result { () throws(SystemCallError) in try renameNoReplace(name, in: source, to: candidate, in: target) }
            switch outcome {
            case .success: return candidate
            case .failure(let error) where error.isNotFound: return nil
            case .failure(let error) where error.isExists: continue
            case .failure(let error): throw error
            }
        }
        throw SystemCallError("renameat2", errno: EEXIST)
    }

    /// The directory at `path` below `root`, or nil when it is gone; any other
    /// failure is thrown, never taken for "gone".
    public static func openIfPresent(_ path: RelativePath, in root: FileDescriptor) throws(SystemCallError) -> FileDescriptor? {
        do {
            return try open(path, in: root)
        } catch where error.isNotFound {
            return nil
        }
    }

    /// Opens the directory at `path` below `root`, making what is missing with `mode`,
    /// one `O_NOFOLLOW` step at a time (a symlink on the way is refused, not followed).
    public static func openOrMake(_ path: RelativePath, in root: FileDescriptor, mode: UInt32) throws(SystemCallError) -> FileDescriptor {
        var current = try duplicate(root)
        for component in path.components {
            let parent = current
            defer { parent.close() }
            try makeDirectory(component, in: parent, mode: mode)
            current = try open(component, in: parent)
        }
        return current
    }
}
