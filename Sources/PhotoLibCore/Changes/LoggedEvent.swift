/// One event in an app's change log (SPEC §6), as a subscriber resuming from a token reads it again.
public struct LoggedEvent: Sendable, Equatable {
    /// Which kind of event: the protocol's `event` field, and how a resume reads it.
    public enum Kind: String, Sendable {
        case change, authorization, selection
        case `import`
    }

    public var token: Int64
    public var kind: Kind
    /// The event exactly as sent to subscribers: one JSON object, no newline.
    public var body: [UInt8]

    public init(token: Int64, kind: Kind, body: [UInt8]) {
        self.token = token
        self.kind = kind
        self.body = body
    }
}
