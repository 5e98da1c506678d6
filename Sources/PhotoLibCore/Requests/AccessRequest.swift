/// A request an app made that waits for the person's answer; kept in the
/// database, so it survives restarts until it is answered or the app removed.
public struct AccessRequest: Sendable, Equatable {
    /// Numbers are never reused, so an answer can never reach a later request.
    public var id: Int64
    public var app: AppID
    public var kind: RequestKind
    /// Seconds since the Unix epoch.
    public var createdAt: Int64

    public init(id: Int64, app: AppID, kind: RequestKind, createdAt: Int64) {
        self.id = id
        self.app = app
        self.kind = kind
        self.createdAt = createdAt
    }
}

/// What the person answers a request with (`photolibctl answer`).
public enum RequestAnswer: String, Sendable, CaseIterable, Codable {
    case authorized
    case limited
    case denied
    /// Withdraws the request without deciding: nothing changes.
    case cancel
    /// For a pick: the assets named with it are what the person chose, in order.
    case pick

    /// How a person types an answer to a request of `kind`, for prompts and errors.
    public static func spellings(for kind: RequestKind) -> String {
        switch kind {
        case .authorization(.addOnly): "authorized, denied or cancel"
        case .authorization(.readWrite): "authorized, limited ASSET…, denied or cancel"
        case .review: "limited ASSET… or cancel"
        case .pick: "the chosen ASSET… (in order), or cancel"
        }
    }
}
