/// What the index remembers of an asset file's inode: enough to notice that it
/// changed, and to tell it from another file that was given the same inode number.
public struct FileFacts: Sendable, Equatable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    /// Nanoseconds since the epoch; `nil` where the filesystem keeps no birth
    /// time (or for rows indexed before photolibd read it).
    public var birthTime: Int64?
    public var size: Int64
    /// Nanoseconds since the epoch.
    public var modificationTime: Int64
    /// Permission bits (`st_mode & 07777`).
    public var permissions: UInt32

    public init(device: UInt64, inode: UInt64, birthTime: Int64? = nil, size: Int64, modificationTime: Int64, permissions: UInt32) {
        self.device = device
        self.inode = inode
        self.birthTime = birthTime
        self.size = size
        self.modificationTime = modificationTime
        self.permissions = permissions
    }

    /// Group or other may write the inode: such a file is never linked into a view.
    public var isWritableByOthers: Bool { permissions & 0o022 != 0 }

    /// Whether its owner may read it. photolibd runs as the owner of every file it links,
    /// so without `u+r` it cannot read one: no location check, no clone.
    public var isReadableByOwner: Bool { permissions & 0o400 != 0 }

    /// Whether an app would see a difference: another inode, size, time or mode.
    /// A birth time learned for the first time is not a change.
    public func differs(from other: FileFacts) -> Bool {
        device != other.device || inode != other.inode || size != other.size
            || modificationTime != other.modificationTime || permissions != other.permissions
            || (birthTime != nil && other.birthTime != nil && birthTime != other.birthTime)
    }
}

/// An indexed file as a scan compares it with a listing: the index's handle for
/// its row and what it remembers of the inode.
public struct IndexedFile: Sendable, Equatable {
    public var rowID: Int64
    public var file: FileFacts
    /// Why the file is left out of every view, when it is (see `LinkRefusal`).
    public var refusal: LinkRefusal?

    public init(rowID: Int64, file: FileFacts, refusal: LinkRefusal? = nil) {
        self.rowID = rowID
        self.file = file
        self.refusal = refusal
    }
}
