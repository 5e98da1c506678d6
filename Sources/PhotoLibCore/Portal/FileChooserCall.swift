/// An `org.freedesktop.impl.portal.FileChooser.OpenFile` call, as the portal
/// frontend made it for an app: what the file-chooser backend decides on.
public struct FileChooserCall: Sendable, Equatable, Codable {
    /// The call's `org.freedesktop.impl.portal.Request` object path.
    public var handle: String
    /// The app's ID as the frontend found it (a Flatpak's ID; empty for an unsandboxed app).
    public var app: String
    public var parent: String
    public var title: String
    public var filters: [FileFilter]
    /// The filter the app wants shown first, when it named one.
    public var current: FileFilter?
    /// True when the app takes more than one file.
    public var multiple: Bool
    /// True when the app asks for a folder.
    public var directory: Bool

    public init(handle: String, app: String, parent: String = "", title: String = "", filters: [FileFilter] = [],
                current: FileFilter? = nil, multiple: Bool = false, directory: Bool = false) {
        self.handle = handle
        self.app = app
        self.parent = parent
        self.title = title
        self.filters = filters
        self.current = current
        self.multiple = multiple
        self.directory = directory
    }
}

/// One of a file dialog's filters: a name and what it lets through.
public struct FileFilter: Sendable, Equatable, Codable {
    public var name: String
    public var patterns: [FilePattern]

    public init(name: String, patterns: [FilePattern]) {
        self.name = name
        self.patterns = patterns
    }
}

/// A filter's pattern: a shell glob on the file name, or a MIME type (as the
/// portal's `(us)` pairs: 0 glob, 1 MIME type).
public struct FilePattern: Sendable, Equatable, Codable {
    public enum Kind: Sendable, Equatable {
        case glob
        case mimeType
        /// A kind this backend does not know: it lets through nothing it can name.
        case unknown(UInt32)

        public init(number: UInt32) {
            switch number {
            case 0: self = .glob
            case 1: self = .mimeType
            default: self = .unknown(number)
            }
        }

        public var number: UInt32 {
            switch self {
            case .glob: 0
            case .mimeType: 1
            case .unknown(let number): number
            }
        }
    }

    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    public init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        kind = Kind(number: try pair.decode(UInt32.self))
        text = try pair.decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var pair = encoder.unkeyedContainer()
        try pair.encode(kind.number)
        try pair.encode(text)
    }
}
