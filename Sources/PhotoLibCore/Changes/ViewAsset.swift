/// An asset as one app's view shows it: what change events and `list` carry.
///
/// `entry` is the view entry's path relative to the app's view (escaped as in
/// `EscapedName`): the asset-ID name in a limited view, the library path in an
/// authorized one. Nothing else about the library is revealed. A Live Photo
/// (`mediaType` `live`) lists its files in `members`, the photo first;
/// `entry`, `size` and `mtime` are the photo's.
public struct ViewAsset: Codable, Sendable, Equatable {
    public var id: String
    public var entry: String
    public var mediaType: String
    public var size: Int64
    /// Modification time, nanoseconds since the Unix epoch.
    public var mtime: Int64
    /// Every file of the asset in the view, when there is more than one.
    public var members: [ViewMember]?

    public init(id: String, entry: String, mediaType: String, size: Int64, mtime: Int64, members: [ViewMember]? = nil) {
        self.id = id
        self.entry = entry
        self.mediaType = mediaType
        self.size = size
        self.mtime = mtime
        self.members = members
    }
}

/// One file of an asset with several (the photo and the video of a Live Photo), as a view shows it.
public struct ViewMember: Codable, Sendable, Equatable {
    public var entry: String
    /// `image` or `video`.
    public var mediaType: String
    public var size: Int64
    public var mtime: Int64

    public init(entry: String, mediaType: String, size: Int64, mtime: Int64) {
        self.entry = entry
        self.mediaType = mediaType
        self.size = size
        self.mtime = mtime
    }
}
