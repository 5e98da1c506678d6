/// An app's authorization for one access level (PhotoKit's `PHAuthorizationStatus`).
public enum AuthorizationStatus: String, Sendable, Codable, CaseIterable {
    case notDetermined
    case restricted
    case denied
    case limited
    case authorized

    /// Accepts the protocol spelling (`notDetermined`) and the command-line one (`not-determined`).
    public init?(spelling: String) {
        if let exact = AuthorizationStatus(rawValue: spelling) {
            self = exact
            return
        }
        guard let match = Self.allCases.first(where: { $0.commandLineSpelling == spelling }) else { return nil }
        self = match
    }

    /// The spelling `photolibctl` uses: `not-determined`, `limited`, …
    public var commandLineSpelling: String {
        self == .notDetermined ? "not-determined" : rawValue
    }
}

/// What an authorization grants (PhotoKit's `PHAccessLevel`).
public enum AccessLevel: String, Sendable, Codable, CaseIterable {
    /// Sees its view.
    case readWrite
    /// May add photos through its inbox; sees nothing.
    case addOnly

    public init?(spelling: String) {
        switch spelling {
        case "readWrite", "read-write": self = .readWrite
        case "addOnly", "add-only": self = .addOnly
        default: return nil
        }
    }

    public var commandLineSpelling: String { self == .readWrite ? "read-write" : "add-only" }
}
