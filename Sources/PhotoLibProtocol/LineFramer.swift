/// Splits a byte stream into newline-terminated lines, with a length limit.
///
/// Pure and incremental: feed bytes as they arrive, in any chunking (one byte
/// at a time included), and take whole lines out. A line longer than `limit`
/// is an error as soon as it is known to be too long, so an endless line never
/// grows the buffer past the limit.
public struct LineFramer: Sendable {
    /// The documented maximum request line, in bytes, without the newline.
    public static let defaultLimit = 1 << 20

    public enum Failure: Error, Equatable, Sendable {
        case lineTooLong(limit: Int)
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var scanned = 0

    public init(limit: Int = LineFramer.defaultLimit) {
        self.limit = limit
    }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line without its `\n` (and a `\r` before it), or `nil` until one is complete.
    public mutating func nextLine() throws(Failure) -> [UInt8]? {
        if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
            var line = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            scanned = 0
            if line.last == 0x0D { line.removeLast() }
            if line.count > limit { throw .lineTooLong(limit: limit) }
            return line
        }
        scanned = buffer.count
        if buffer.count > limit { throw .lineTooLong(limit: limit) }
        return nil
    }

    /// Bytes received but not yet part of a complete line.
    public var pendingByteCount: Int { buffer.count }
}
