/// One directory entry name, kept as the exact bytes the kernel gave us.
///
/// File names on Linux are bytes: they may be invalid UTF-8, and NFC/NFD
/// spellings of the same word are different files. A Swift `String` would fold
/// both kinds together, so nothing in photolibd keys by a `String` made from a
/// file name. Comparison and hashing here are byte-exact.
public struct FileName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The raw name, without a terminating NUL.
    public let bytes: [UInt8]

    /// Wraps raw bytes that are known to be a valid single path component.
    ///
    /// Returns `nil` for an empty name, `.`, `..`, or a name containing `/` or NUL.
    public init?(bytes: [UInt8]) {
        guard FileName.isValidComponent(bytes) else { return nil }
        self.bytes = bytes
    }

    /// Wraps a Swift string's UTF-8 bytes as they are (no normalisation).
    public init?(_ string: String) {
        self.init(bytes: Array(string.utf8))
    }

    public static func isValidComponent(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty || bytes.count > 255 { return false }
        if bytes == [0x2E] || bytes == [0x2E, 0x2E] { return false }
        return !bytes.contains(0x2F) && !bytes.contains(0)
    }

    /// A lossless printable form: see `EscapedName`.
    public var escaped: String { EscapedName.escape(bytes) }

    public var description: String { escaped }

    /// True for names that start with a dot.
    public var isHidden: Bool { bytes.first == 0x2E }

    /// The bytes after the last dot, or `nil` when there is no extension.
    public var pathExtension: [UInt8]? {
        guard let dot = bytes.lastIndex(of: 0x2E), dot > 0, dot < bytes.count - 1 else { return nil }
        return Array(bytes[(dot + 1)...])
    }

    /// The name without its extension (the whole name when it has none):
    /// what the members of a Live Photo share.
    public var stem: [UInt8] {
        guard let ext = pathExtension else { return bytes }
        return Array(bytes.dropLast(ext.count + 1))
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (lhs: FileName, rhs: FileName) -> Bool { lhs.bytes == rhs.bytes }

    public static func < (lhs: FileName, rhs: FileName) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
