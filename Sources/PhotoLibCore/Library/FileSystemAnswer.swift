/// A failed lookup in the library, as the system layer reported it.
///
/// Only a few answers mean that something is gone; every other failure means
/// "cannot tell now" (SPEC §3: an error is not a deletion).
public struct FileSystemFailure: Error, Sendable, Equatable, Hashable {
    public let call: String
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    // Linux's numbers: the core imports no libc, and photolibd runs on Linux only.
    public static let noSuchEntry: Int32 = 2        // ENOENT
    public static let notADirectory: Int32 = 20     // ENOTDIR
    public static let tooManySymlinks: Int32 = 40   // ELOOP

    /// Whether the failure proves the entry is gone: `ENOENT` or `ENOTDIR`, and
    /// `ELOOP` from an `O_NOFOLLOW` open, which says "this is a symlink now", so
    /// not an album or an asset any more. `EACCES`, `EIO`, `EMFILE` and the rest
    /// prove nothing.
    public var meansGone: Bool {
        errno == Self.noSuchEntry || errno == Self.notADirectory || errno == Self.tooManySymlinks
    }
}

/// What the filesystem answered when asked about one thing in the library.
public enum Lookup<Value> {
    case found(Value)
    /// It does not exist (see `FileSystemFailure.meansGone`).
    case gone
    /// It may exist, but cannot be read now.
    case unreadable(FileSystemFailure)

    /// The answer a failure gives: gone, or unreadable.
    public init(failure: FileSystemFailure) {
        self = failure.meansGone ? .gone : .unreadable(failure)
    }
}

extension Lookup: Sendable where Value: Sendable {}
extension Lookup: Equatable where Value: Equatable {}
