import PhotoLibCore

/// `pick` parameters (app method): the app asks the person to choose photos
/// to hand over once (PHPickerViewController). The reply comes when the
/// person answers, with the files as descriptors (docs/PROTOCOL.md, "Picking").
public struct PickParams: Codable, Sendable, Equatable {
    public var app: String?
    /// Kinds to choose from: `image`, `video`, `live` (default: all three).
    public var types: [String]?
    /// The most assets to choose, 0 for no limit but the daemon's (default 1).
    public var limit: Int?
    /// True when the app uses the order the person chose in (default false).
    public var ordered: Bool?
    /// False: no desktop notification; the caller opens the sheet itself, as the
    /// file-chooser portal does (default true; admins only).
    public var notify: Bool?
    /// The types the app reads (`image/jpeg`, `image/*`); a photo of another type arrives as a JPEG
    /// when the app reads JPEG (default: any type, as it is).
    public var accepts: [String]?

    public init(app: String? = nil, types: [String]? = nil, limit: Int? = nil, ordered: Bool? = nil, notify: Bool? = nil,
                accepts: [String]? = nil) {
        self.accepts = accepts
        self.app = app
        self.types = types
        self.limit = limit
        self.ordered = ordered
        self.notify = notify
    }
}

/// What a pending pick asks for, as `requests` and `request` events show it.
public struct PickInfo: Codable, Sendable, Equatable {
    public var types: [String]
    public var limit: Int
    public var ordered: Bool
    /// The types the app reads, when it said.
    public var accepts: [String]?

    public init(types: [String], limit: Int, ordered: Bool, accepts: [String]? = nil) {
        self.types = types
        self.limit = limit
        self.ordered = ordered
        self.accepts = accepts
    }

    public init(_ options: PickOptions) {
        self.init(types: options.typeNames, limit: options.limit, ordered: options.ordered,
                  accepts: options.accepts.isEmpty ? nil : options.accepts)
    }
}

/// The reply to `pick`: the chosen assets in the person's order, and, for each,
/// the files whose descriptors arrived with this line, in the same order.
public struct PickResult: Codable, Sendable, Equatable {
    public var request: Int64
    /// `picked`, or `cancelled` (then `assets` is empty and no descriptor came).
    public var state: String
    public var assets: [PickedAsset]
    /// With `cancelled`, when it was not the person's own Cancel: `pageClosed`.
    public var reason: String?

    public init(request: Int64, state: String, assets: [PickedAsset], reason: String? = nil) {
        self.request = request
        self.state = state
        self.assets = assets
        self.reason = reason
    }

    /// The descriptors that came with the reply: one per file of every asset.
    public var descriptorCount: Int { assets.reduce(0) { $0 + $1.files.count } }
}

/// One chosen asset as the app sees it: no path in the library, only its file names.
public struct PickedAsset: Codable, Sendable, Equatable {
    public var id: String
    /// `image`, `video` or `live`.
    public var mediaType: String
    /// The files handed over, photo first: a Live Photo's two when the app asked for `live`.
    public var files: [PickedFile]

    public init(id: String, mediaType: String, files: [PickedFile]) {
        self.id = id
        self.mediaType = mediaType
        self.files = files
    }
}

/// One file handed over with a pick.
public struct PickedFile: Codable, Sendable, Equatable {
    /// The original's file name (escaped, docs/PROTOCOL.md "Names").
    public var name: String
    /// `image` or `video`.
    public var mediaType: String
    public var size: Int64
    /// Nanoseconds since the Unix epoch.
    public var mtime: Int64
    /// True when the descriptor is of a private copy (the app runs as the library's owner, or the
    /// photo lost metadata the app may not have, or was converted).
    public var copy: Bool?
    /// The original's MIME type when the app received a JPEG made from it (`name` then ends in `.jpg`).
    public var converted: String?

    public init(name: String, mediaType: String, size: Int64, mtime: Int64, copy: Bool?, converted: String? = nil) {
        self.converted = converted
        self.name = name
        self.mediaType = mediaType
        self.size = size
        self.mtime = mtime
        self.copy = copy
    }
}
