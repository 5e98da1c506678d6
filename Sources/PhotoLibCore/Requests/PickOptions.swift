/// What an app's one-time pick asks for (PHPickerViewController's
/// configuration): which kinds of media, how many at most, and whether the
/// person's order matters to the app.
public struct PickOptions: Sendable, Hashable {
    /// The kinds the person may choose from: `image`, `video`, `live`.
    public var types: Set<MediaType>
    /// The most assets the person may choose; 0 means no limit but the daemon's own.
    public var limit: Int
    /// True when the app uses the order the person chose in (the person is told to choose in order).
    public var ordered: Bool
    /// The types the app reads (`image/jpeg`, `image/*`), lowercase; empty: any. A chosen photo of
    /// another type reaches it as a JPEG when it reads JPEG (`FormatDecision`).
    public var accepts: [String] = []

    /// The most assets one pick delivers, whatever the app asks: with a Live
    /// Photo's two files each, 500 descriptors, which an app with the usual
    /// limit of 1,024 open files can take.
    public static let maximumAssets = 250

    public init(types: Set<MediaType> = Set(MediaType.allCases), limit: Int = 1, ordered: Bool = false) {
        self.types = types
        self.limit = limit
        self.ordered = ordered
    }

    /// The options an app sent, checked: known types, a limit from 0 (none) to `maximumAssets`.
    public static func parse(types: [String]?, limit: Int?, ordered: Bool?, accepts: [String]? = nil) throws(PhotoLibError) -> PickOptions {
        var kinds = Set<MediaType>()
        for text in types ?? MediaType.allCases.map(\.rawValue) {
            guard let kind = MediaType(rawValue: text) else {
                throw .invalidParameter(name: "types", reason: "'\(text)' is not one of image, video, live")
            }
            kinds.insert(kind)
        }
        if kinds.isEmpty { throw .invalidParameter(name: "types", reason: "it is empty; name at least one of image, video, live") }
        let limit = limit ?? 1
        guard (0...maximumAssets).contains(limit) else {
            throw .invalidParameter(name: "limit", reason: "\(limit) is not between 0 (no limit) and \(maximumAssets)")
        }
        var options = PickOptions(types: kinds, limit: limit, ordered: ordered ?? false)
        let accepted = (accepts ?? []).map { $0.lowercased() }
        if accepted.count > 64 { throw .invalidParameter(name: "accepts", reason: "it names \(accepted.count) types; name at most 64") }
        for pattern in accepted where !FileFormat.isPattern(pattern) {
            throw .invalidParameter(name: "accepts", reason: "'\(pattern)' is not a MIME type such as image/jpeg or image/*")
        }
        options.accepts = accepted
        return options
    }

    /// The most assets the person may choose now: the app's limit, or the daemon's.
    public var effectiveLimit: Int { limit == 0 ? Self.maximumAssets : min(limit, Self.maximumAssets) }

    /// The types in a fixed order, for messages and the protocol.
    public var typeNames: [String] { MediaType.allCases.filter(types.contains).map(\.rawValue) }

    /// How the store keeps them: `types=image,live;limit=3;ordered=1`.
    public var storageText: String {
        "types=\(typeNames.joined(separator: ","));limit=\(limit);ordered=\(ordered ? 1 : 0)"
            + (accepts.isEmpty ? "" : ";accepts=" + accepts.joined(separator: ","))
    }

    public init?(storageText: String) {
        var types: [String]?
        var limit: Int?
        var ordered: Bool?
        var accepts: [String]?
        for field in storageText.split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "types": types = parts[1].split(separator: ",").map(String.init)
            case "limit": limit = Int(parts[1])
            case "ordered": ordered = parts[1] == "1"
            case "accepts": accepts = parts[1].split(separator: ",").map(String.init)
            default: return nil
            }
        }
        do {
            self = try Self.parse(types: types, limit: limit, ordered: ordered, accepts: accepts)
        } catch {
            return nil  // not text this type wrote: the caller reports the row as unreadable
        }
    }

    /// How a person reads it, after "APP asks you to choose": "up to 3 photos or Live Photos, in order".
    public var described: String {
        let one = limit == 1
        let kinds = typeNames.map { name in
            switch name {
            case "image": one ? "photo" : "photos"
            case "video": one ? "video" : "videos"
            default: one ? "Live Photo" : "Live Photos"
            }
        }
        let what = kinds.count > 1 ? kinds.dropLast().joined(separator: ", ") + " or " + kinds[kinds.count - 1] : kinds[0]
        let count = limit == 0 ? "any number of \(what)" : one ? "one \(what)" : "up to \(limit) \(what)"
        return count + (ordered ? ", in order" : "")
    }
}
