/// Cuts the kernel's inotify records out of bytes that arrive in pieces.
///
/// A record is `struct inotify_event` (watch, mask, cookie, name length: four
/// 32-bit words in the machine's order) followed by `len` bytes of name,
/// NUL-padded. An inotify descriptor's `read` always returns whole records; the
/// stream from `photolibd-inotify` is the same records on a socket, which may
/// split one anywhere. Bytes of a record not yet complete wait for the next piece.
public struct InotifyRecords: Sendable {
    /// The size of `struct inotify_event` without its name.
    public static let headerSize = 16
    /// The longest name a record may carry: NAME_MAX and its NUL, padded. A longer
    /// length is a corrupt stream, which `append` reports rather than waiting for it.
    public static let longestName = 256 + 16

    private var unread: [UInt8] = []

    public init() {}

    /// A stream that cannot be inotify records (a name length past `longestName`).
    public struct Corrupt: Error, Equatable {
        public let length: Int
    }

    /// True when no part of a record is waiting.
    public var isEmpty: Bool { unread.isEmpty }

    /// Takes `bytes` and returns every record they complete, in order.
    ///
    /// - Throws: `Corrupt` when a record's name length is impossible; the bytes
    ///   from there on are dropped.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Corrupt) -> [InotifyEvent] {
        if unread.isEmpty { return try take(Self.cut(bytes)) }
        unread.append(contentsOf: bytes)
        return try take(unread.withUnsafeBytes { Self.cut($0) })
    }

    /// Takes `bytes` (see the other `append`).
    public mutating func append(_ bytes: [UInt8]) throws(Corrupt) -> [InotifyEvent] {
        unread.append(contentsOf: bytes)
        return try take(unread.withUnsafeBytes { Self.cut($0) })
    }

    private mutating func take(_ cut: Result<Cut, Corrupt>) throws(Corrupt) -> [InotifyEvent] {
        switch cut {
        case .success(let done):
            unread = done.rest
            return done.events
        case .failure(let corrupt):
            unread = []
            throw corrupt
        }
    }

    private struct Cut {
        var events: [InotifyEvent]
        var rest: [UInt8]
    }

    private static func cut(_ bytes: UnsafeRawBufferPointer) -> Result<Cut, Corrupt> {
        var events: [InotifyEvent] = []
        var offset = 0
        while bytes.count - offset >= headerSize {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            guard length <= longestName else { return .failure(Corrupt(length: length)) }
            guard bytes.count - offset - headerSize >= length else { break }
            let name = UnsafeRawBufferPointer(rebasing: bytes[(offset + headerSize)..<(offset + headerSize + length)])
            events.append(InotifyEvent(
                watch: WatchDescriptor(rawValue: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)),
                mask: InotifyMask(rawValue: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)),
                cookie: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self),
                name: Array(name.prefix { $0 != 0 })))
            offset += headerSize + length
        }
        return .success(Cut(events: events, rest: offset < bytes.count ? Array(bytes[offset...]) : []))
    }
}
