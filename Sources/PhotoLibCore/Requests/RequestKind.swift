/// What an app asks the person for: authorization at one access level, a
/// review of its limited selection (iOS's limited-library picker), or a
/// one-time pick (PHPickerViewController: files handed over once, no grant).
///
/// An app has at most one pending request of each kind: asking again while one
/// is pending waits for the same answer (a pick, bound to its connection, is
/// refused instead: `pickPending`).
public enum RequestKind: Sendable, Hashable {
    case authorization(AccessLevel)
    case review
    case pick(PickOptions)

    /// The protocol's `kind`: `authorization` or `review`.
    public var name: String {
        switch self {
        case .authorization: "authorization"
        case .review: "review"
        case .pick: Self.pickName
        }
    }

    /// The `kind` of every pick.
    public static let pickName = "pick"

    /// What a pick asks for; nil for other kinds.
    public var pickOptions: PickOptions? {
        if case .pick(let options) = self { return options }
        return nil
    }

    /// The access level asked for, for an authorization request.
    public var access: AccessLevel? {
        if case .authorization(let level) = self { return level }
        return nil
    }

    /// The key the store keeps one pending request per app under.
    public var storageKey: String {
        switch self {
        case .authorization(let level): "authorization.\(level.rawValue)"
        case .review: "review"
        case .pick: "pick"
        }
    }

    /// What the store keeps beside the key: a pick's options (nil for other kinds).
    public var storageOptions: String? { pickOptions?.storageText }

    public init?(storageKey: String, options: String?) {
        switch storageKey {
        case "review": self = .review
        case "pick":
            guard let options = options.flatMap(PickOptions.init(storageText:)) else { return nil }
            self = .pick(options)
        case "authorization.readWrite": self = .authorization(.readWrite)
        case "authorization.addOnly": self = .authorization(.addOnly)
        default: return nil
        }
    }

    /// How a person reads it, after "APP asks": "for access to your photos", …
    public var described: String {
        switch self {
        case .authorization(.readWrite): "for access to your photos"
        case .authorization(.addOnly): "for permission to add photos"
        case .review: "to share more photos with it"
        case .pick(let options): "you to pick \(options.described), for it to receive once"
        }
    }
}
