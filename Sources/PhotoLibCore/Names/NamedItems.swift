/// What a person named to select, deselect, answer a request with or pick, as they typed it, parsed:
/// each photo by its asset ID or its path in the library, each album by its path.
///
/// Parsing is the caller's (the router's: the engine takes no text); finding each in the index is the
/// engine's. A photo's words may be both an ID's shape and a path (a file may be named like an ID):
/// the ID is tried first, then the path.
public struct NamedItems: Sendable, Equatable {
    /// One photo as named.
    public struct Asset: Sendable, Equatable {
        /// The words as typed, for the error that says they name nothing.
        public let typed: String
        /// The asset ID the words are, when they have an ID's shape.
        public let id: AssetID?
        /// The path in the library the words are, when they can be one (inside the library, if absolute).
        public let path: RelativePath?

        /// Why the words name no photo: words of an ID's shape name an unknown asset; others, no asset.
        public var notFound: PhotoLibError { id != nil ? .unknownAsset(typed) : .notAnAsset(path: typed) }
    }

    /// One album as named: its path in the library.
    public struct Album: Sendable, Equatable {
        public let typed: String
        public let path: RelativePath
    }

    public var assets: [Asset]
    public var albums: [Album]

    /// Parses what was typed; `library` is the library's absolute path, which absolute paths must be inside.
    /// An album that cannot be a path in the library is refused here; a photo is refused when it is looked up.
    public init(assets: [String], albums: [String] = [], library: String) throws(PhotoLibError) {
        self.assets = assets.map { Asset(typed: $0, id: AssetID($0), path: RelativePath(typed: $0, library: library)) }
        self.albums = try albums.map { text throws(PhotoLibError) in
            guard let path = RelativePath(typed: text, library: library) else { throw .unknownAlbum(path: text) }
            return Album(typed: text, path: path)
        }
    }

    /// Nothing named.
    public static let nothing = NamedItems()

    private init() {
        assets = []
        albums = []
    }

    public var isEmpty: Bool { assets.isEmpty && albums.isEmpty }
}
