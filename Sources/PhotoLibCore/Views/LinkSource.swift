/// What a view entry links or clones: a file in a library album, or the member's
/// derivative without location, by name, expected to have this inode.
public struct LinkSource: Sendable, Equatable {
    public var album: RelativePath
    public var name: FileName
    public var inode: UInt64
    /// The content a clone of it must hold: the size of the file cloned, and the
    /// original's modification time (what `list` tells the app), given to the clone.
    public var stamp: ContentStamp
    /// The member file's row, to record a refusal against.
    public var rowID: Int64
    /// In `.derivatives` rather than the library.
    public var isDerivative = false

    public init(album: RelativePath, name: FileName, inode: UInt64, rowID: Int64, stamp: ContentStamp) {
        self.album = album
        self.name = name
        self.inode = inode
        self.rowID = rowID
        self.stamp = stamp
    }

    /// A library file as the index knows it.
    public init(album: RelativePath, name: FileName, rowID: Int64, file: FileFacts) {
        self.init(album: album, name: name, inode: file.inode, rowID: rowID,
                  stamp: ContentStamp(size: file.size, modificationTime: file.modificationTime))
    }

    /// The member's derivative (`inode`, `size`), made from the original as it is now
    /// (`original`): a clone of it carries the original's modification time.
    public init(derivativeOf rowID: Int64, inode: UInt64, size: Int64, original: FileFacts) {
        self.init(album: .root, name: Self.derivativeName(rowID), inode: inode, rowID: rowID,
                  stamp: ContentStamp(size: size, modificationTime: original.modificationTime))
        isDerivative = true
    }

    /// A member file, where it is in the library now.
    public init?(_ member: LocatedMember) {
        guard let name = member.path.lastComponent else { return nil }
        self.init(album: member.path.parent ?? .root, name: name, rowID: member.rowID, file: member.file)
    }

    /// What the entry for it must be in a view of this form.
    public func wanted(_ form: ViewEntryForm) -> WantedEntry {
        switch form {
        case .links: .link(inode: inode)
        case .clones: .clone(source: inode, stamp: stamp)
        // A derivative is on the views' own filesystem: a link to it.
        case .references: isDerivative ? .link(inode: inode) : .reference(target: referenceTarget)
        }
    }

    /// A reference's target: the photo's path from the library's top (`/Trips/a.jpg`), which
    /// photolibd-viewfs opens beneath the library and nowhere else.
    public var referenceTarget: [UInt8] {
        [0x2F] + album.appending(name).bytes
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
    /// Directories taken as right by their stamps at a start (`ViewTrust`), neither read nor compared.
    public var trustedDirectories = 0

    public init(linked: Int = 0, unlinked: Int = 0, refused: Int = 0, trustedDirectories: Int = 0) {
        self.linked = linked
        self.unlinked = unlinked
        self.refused = refused
        self.trustedDirectories = trustedDirectories
    }
}
