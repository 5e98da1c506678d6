/// What kind of media an asset, or one of its member files, is.
///
/// A file is an `image` or a `video` (by its name: `AssetNamePolicy`). An
/// asset is the kind of its one member, or `live` when it is a Live Photo: a
/// still image and its short video, paired by `LivePairing`.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    case image
    case video
    case live

    /// The asset type of a group of member files.
    public static func ofAsset(members: some Collection<MediaType>) -> MediaType {
        let kinds = Set(members)
        if kinds.contains(.image) && kinds.contains(.video) { return .live }
        return kinds.first ?? .image
    }
}

extension MediaType {
    /// A media type as a request names it (`--type`), or the error that lists the ones there are.
    public static func parse(_ text: String) throws(PhotoLibError) -> MediaType {
        guard let known = MediaType(rawValue: text) else {
            throw .invalidParameter(name: "type", reason: "'\(text)' is not one of image, video, live")
        }
        return known
    }
}
