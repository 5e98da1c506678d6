import Glibc
public import PhotoLibCore

/// A failed system call: which call, on what, and the `errno` it returned.
///
/// The system layer throws only this; the daemon decides what a failure means
/// (an `ENOENT` during a scan is a file deleted meanwhile, not an error).
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }

    public var isNotFound: Bool { errno == ENOENT || errno == ENOTDIR }
    public var isExists: Bool { errno == EEXIST }
}

/// Runs one system call, retrying on `EINTR` and capturing `errno` at once.
///
/// Every raw call in photolibd goes through here, so no call site can forget
/// either rule.
@inline(__always)
func systemCall<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(SystemCallError) -> T {
    SystemCallAudit.note(name)
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemCallError(name, errno: code)
    }
}

extension SystemCallError {
    /// The failure in the core's terms, whose rules decide what it means.
    public var failure: FileSystemFailure { FileSystemFailure(call: call, errno: errno) }
}
