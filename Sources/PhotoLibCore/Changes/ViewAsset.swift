/// An asset as one app's view shows it: what change events and `list` carry.
///
/// `entry` is the view entry's path relative to the app's view (escaped as in
/// `EscapedName`): the asset-ID name in a limited view, the library path in an
/// authorized one. Nothing else about the library is revealed.
public struct ViewAsset: Codable, Sendable, Equatable {
    public var id: String
    public var entry: String
    public var mediaType: String
    public var size: Int64
    /// Modification time, nanoseconds since the Unix epoch.
    public var mtime: Int64

    public init(id: String, entry: String, mediaType: String, size: Int64, mtime: Int64) {
        self.id = id
        self.entry = entry
        self.mediaType = mediaType
        self.size = size
        self.mtime = mtime
    }
}
