/// What a view entry links: a file in a library album, or the member's
/// derivative without location, by name, expected to have this inode.
public struct LinkSource: Sendable, Equatable {
    public var album: RelativePath
    public var name: FileName
    public var inode: UInt64
    /// The member file's row, to record a refusal against.
    public var rowID: Int64
    /// In `.derivatives` rather than the library.
    public var isDerivative = false

    public init(album: RelativePath, name: FileName, inode: UInt64, rowID: Int64) {
        self.album = album
        self.name = name
        self.inode = inode
        self.rowID = rowID
    }

    /// The member's derivative.
    public init(derivativeOf rowID: Int64, inode: UInt64) {
        self.init(album: .root, name: Self.derivativeName(rowID), inode: inode, rowID: rowID)
        isDerivative = true
    }

    /// A member file, where it is in the library now.
    public init?(_ member: LocatedMember) {
        guard let name = member.path.lastComponent else { return nil }
        self.init(album: member.path.parent ?? .root, name: name, inode: member.file.inode, rowID: member.rowID)
    }

    /// A member's derivative's name in `.derivatives`: its row (`m42`), as rows are
    /// never reused; one derivative per member, shared by every view without location.
    public static func derivativeName(_ rowID: Int64) -> FileName { FileName("m\(rowID)")! }
}

/// What one link attempt came to.
public enum LinkOutcome: Equatable, Sendable {
    case linked
    /// Nothing linked, for now: the source is gone, replaced or unreadable; its event or the next scan decides.
    case skipped
    /// The original must not be linked (see `LinkRefusal`).
    case refused(LinkRefusal)
}

/// What a full reconcile of a view did, for logs and tests.
public struct ViewReconcileReport: Equatable, Sendable {
    public var linked = 0
    public var unlinked = 0
    public var refused = 0

    public init(linked: Int = 0, unlinked: Int = 0, refused: Int = 0) {
        self.linked = linked
        self.unlinked = unlinked
        self.refused = refused
    }
}
