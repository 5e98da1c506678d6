/// What one `statx` of a library entry answered, in the core's terms.
public struct FileObservation: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symlink, other
    }

    public var kind: Kind
    public var facts: FileFacts
    public var owner: UInt32
    public var linkCount: UInt64

    public init(kind: Kind, facts: FileFacts, owner: UInt32, linkCount: UInt64) {
        self.kind = kind
        self.facts = facts
        self.owner = owner
        self.linkCount = linkCount
    }
}
