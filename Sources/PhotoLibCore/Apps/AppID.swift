/// An app's reverse-DNS identifier, such as `org.example.Viewer`.
///
/// It names the app's view directory, so the rules are strict: ASCII letters,
/// digits, `-` and `_` in at least two dot-separated parts, the first starting
/// with a letter, at most 255 bytes. Nothing in it can climb out of a directory.
public struct AppID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let rawValue: String

    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return nil }
        let parts = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(Self.isAllowed) else { return nil }
        }
        guard let first = bytes.first, Self.isLetter(first) else { return nil }
        rawValue = text
    }

    private static func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    private static func isAllowed(_ b: UInt8) -> Bool {
        isLetter(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x5F
    }

    /// The app's view directory name.
    public var directoryName: FileName { FileName(rawValue)! }

    public var description: String { rawValue }
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = AppID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an app ID"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension AppID {
    /// An app ID as a request names it, or the error that says it is not one.
    public static func parse(_ text: String) throws(PhotoLibError) -> AppID {
        guard let id = AppID(text) else { throw .invalidAppID(text) }
        return id
    }
}
