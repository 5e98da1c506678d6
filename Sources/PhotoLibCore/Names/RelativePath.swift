/// A path below a root directory (the library, or a view), as byte components.
///
/// The empty path is the root itself. Paths never contain `.` or `..`, so they
/// cannot climb out of their root.
public struct RelativePath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var components: [FileName]

    public init(_ components: [FileName] = []) {
        self.components = components
    }

    public static let root = RelativePath()

    public var isRoot: Bool { components.isEmpty }
    public var lastComponent: FileName? { components.last }

    public var parent: RelativePath? {
        isRoot ? nil : RelativePath(Array(components.dropLast()))
    }

    public func appending(_ name: FileName) -> RelativePath {
        RelativePath(components + [name])
    }

    public func appending(_ other: RelativePath) -> RelativePath {
        RelativePath(components + other.components)
    }

    /// True when `self` is `other` or lies below it.
    public func isWithin(_ other: RelativePath) -> Bool {
        components.count >= other.components.count
            && Array(components.prefix(other.components.count)) == other.components
    }

    /// `self` with the prefix `old` replaced by `new`; `nil` when `self` is not within `old`.
    public func replacingPrefix(_ old: RelativePath, with new: RelativePath) -> RelativePath? {
        guard isWithin(old) else { return nil }
        return RelativePath(new.components + components.dropFirst(old.components.count))
    }

    /// The raw path bytes joined with `/` (empty for the root).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        for (index, component) in components.enumerated() {
            if index > 0 { out.append(0x2F) }
            out.append(contentsOf: component.bytes)
        }
        return out
    }

    /// The escaped spelling, components joined with `/`.
    public var escaped: String { components.map(\.escaped).joined(separator: "/") }

    public var description: String { isRoot ? "." : escaped }

    /// Parses an escaped path such as `Trips/2024/IMG_1.jpg`.
    ///
    /// Leading, trailing and doubled slashes are ignored. Returns `nil` for a
    /// malformed escape or a `.`/`..` component.
    public init?(escaped: String) {
        guard let raw = EscapedName.unescape(escaped) else { return nil }
        self.init(rawBytes: raw)
    }

    /// Splits raw path bytes on `/`; `nil` when a component is `.`, `..` or holds NUL.
    public init?(rawBytes: [UInt8]) {
        var parts: [FileName] = []
        for piece in rawBytes.split(separator: 0x2F, omittingEmptySubsequences: true) {
            guard let name = FileName(bytes: Array(piece)) else { return nil }
            parts.append(name)
        }
        self.init(parts)
    }

    public static func < (lhs: RelativePath, rhs: RelativePath) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }
}

extension RelativePath {
    /// A path as a person typed it (`select`, `deselect`, the page): relative to the
    /// library, or absolute inside `library`; nil for one outside it or not valid.
    public init?(typed text: String, library: String) {
        var relative = text
        let prefix = library.hasSuffix("/") ? library : library + "/"
        if text.hasPrefix("/") {
            guard text.hasPrefix(prefix) || text == library else { return nil }
            relative = String(text.dropFirst(min(prefix.count, text.count)))
        }
        self.init(escaped: relative)
    }
}
