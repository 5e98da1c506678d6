/// What an app asks the person for: authorization at one access level, or a
/// review of its limited selection (iOS's limited-library picker).
///
/// An app has at most one pending request of each kind: asking again while one
/// is pending waits for the same answer.
public enum RequestKind: Sendable, Hashable {
    case authorization(AccessLevel)
    case review

    /// The protocol's `kind`: `authorization` or `review`.
    public var name: String {
        switch self {
        case .authorization: "authorization"
        case .review: "review"
        }
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
        }
    }

    public init?(storageKey: String) {
        switch storageKey {
        case "review": self = .review
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
        }
    }
}
