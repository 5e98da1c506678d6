import Glibc

/// An owned file descriptor. Close it exactly once with `close()`.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The corresponding C function is `close`. Errors are ignored: Linux
    /// releases the descriptor even when close reports one, so retrying would
    /// close someone else's.
    public func close() {
        SystemCallAudit.note("close")
        _ = Glibc.close(rawValue)
    }

    /// The path the kernel resolves this descriptor to, for `linkat` and inotify.
    public var procPath: String { "/proc/self/fd/\(rawValue)" }
}
