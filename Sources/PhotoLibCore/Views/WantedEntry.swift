/// A regular file found in a view directory, with what is known of it: its
/// inode always (from the listing), its link count, size and modification time
/// when it was looked at (`stat`), which clones need and links do not.
public struct PresentFile: Sendable, Equatable {
    public var inode: UInt64
    public var stamp: ContentStamp?
    public var linkCount: UInt64?
    /// A symbolic link's target (a reference, `ViewEntryForm.references`); nil for a regular file.
    public var target: [UInt8]?

    public init(inode: UInt64, stamp: ContentStamp? = nil, linkCount: UInt64? = nil, target: [UInt8]? = nil) {
        self.inode = inode
        self.stamp = stamp
        self.linkCount = linkCount
        self.target = target
    }
}

/// Which version of a file's content an entry holds: its size and modification
/// time, as `cp -a`, rsync and make tell versions apart. A clone is given the
/// original's modification time, which `list` tells the app anyway, so the
/// stamp is kept on the clone itself and leaves it nothing new to learn.
public struct ContentStamp: Sendable, Equatable, Hashable {
    public var size: Int64
    /// Nanoseconds since the epoch.
    public var modificationTime: Int64

    public init(size: Int64, modificationTime: Int64) {
        self.size = size
        self.modificationTime = modificationTime
    }
}

/// What a view entry must be to hold its source as it is now.
public enum WantedEntry: Sendable, Equatable {
    /// The source itself, by hard link: that inode.
    case link(inode: UInt64)
    /// A clone of the source (`source` is its inode): another inode, linked
    /// nowhere else, with the source's content stamp. An edit of the original
    /// changes its stamp, so the clone is made again; a hard link to the source
    /// (a view from `links` mode) is not a clone, so it is replaced by one.
    case clone(source: UInt64, stamp: ContentStamp)
    /// A symbolic link naming the source by its path in the library (`target`, its bytes): what
    /// photolibd-viewfs serves. A rename of the photo or of an album changes the target, so the
    /// reference is made again; its content is read from the library at each open.
    case reference(target: [UInt8])

    /// Whether the file present is what this entry must be.
    public func isHeld(by present: PresentFile) -> Bool {
        switch self {
        case .reference(let target):
            return present.target == target
        case _ where present.target != nil:
            return false  // a reference is neither a link nor a clone
        case .link(let inode):
            return present.inode == inode
        case .clone(let source, let stamp):
            guard present.inode != source, let presentStamp = present.stamp else { return false }
            return presentStamp == stamp && (present.linkCount ?? 1) == 1
        }
    }
}

extension WantedEntry {
    /// Whether the entry present may stay when this one could not be placed now.
    ///
    /// The right file always stays. With clones, an older clone also stays when
    /// the placing was only `skipped` (the source was being edited, went, or could
    /// not be read: its event decides next): it is a version of the same photo the
    /// app was given, and an entry that vanishes mid-edit is worse. Anything else
    /// goes, and a refused original never leaves an entry.
    public func keeps(_ present: PresentFile, after outcome: LinkOutcome) -> Bool {
        if isHeld(by: present) { return true }
        guard case .clone(let source, _) = self, outcome == .skipped, present.target == nil else { return false }
        return present.inode != source && present.linkCount == 1
    }
}
