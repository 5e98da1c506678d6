/// What a view directory was when photolibd last stopped cleanly: enough to tell, at the next
/// start, that nobody has touched it since.
///
/// On Linux a directory's ctime moves with every entry added, removed or renamed in it, and with
/// every chmod, chown or ACL change of it; only root can set it back (by changing the clock). With
/// its device, inode and birth time (another directory put in its place has others), an equal
/// stamp says the directory holds what it held.
public struct ViewStamp: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    /// Nanoseconds since the epoch, where the filesystem keeps a birth time.
    public var birthTime: Int64?
    /// ctime, in nanoseconds since the epoch.
    public var changeTime: Int64
    /// mtime, in nanoseconds since the epoch.
    public var modificationTime: Int64

    public init(device: UInt64, inode: UInt64, birthTime: Int64?, changeTime: Int64, modificationTime: Int64) {
        self.device = device
        self.inode = inode
        self.birthTime = birthTime
        self.changeTime = changeTime
        self.modificationTime = modificationTime
    }
}

/// The stamps of the hard-link views' directories a clean stop recorded, and which of them a start
/// may trust rather than list and compare entry by entry.
///
/// The rule is git's for a racily clean index: the stop touches a sentinel file first and keeps its
/// ctime; a directory is trusted only when its stamp is the same now and its ctime is before the
/// sentinel's. The kernel's timestamps are coarse (a tick of some milliseconds), so a change made
/// in the very tick the stop looked at a directory could leave its ctime as recorded; such a
/// directory's ctime is not before the sentinel's, and it is checked. The record is deleted in the
/// start's first transaction: a daemon that crashes after that leaves none, and the next start
/// checks everything.
public struct ViewStamps: Sendable, Equatable {
    /// The sentinel's ctime, in nanoseconds since the epoch, taken before any directory was looked at.
    public var sentinel: Int64
    /// What the views were made under (the daemon's version and its configuration): another, and no
    /// stamp is trusted.
    public var fingerprint: String
    /// Each view directory's stamp: by app, by the album it mirrors.
    public var directories: [AppID: [AlbumTree.ID: ViewStamp]]

    public init(sentinel: Int64, fingerprint: String, directories: [AppID: [AlbumTree.ID: ViewStamp]]) {
        self.sentinel = sentinel
        self.fingerprint = fingerprint
        self.directories = directories
    }

    /// What a start may trust of one app's view: nil when nothing (no stamps for it, or the views
    /// were made under another version or configuration). `changedAlbums`: the albums whose files
    /// or sub-albums the start's scan found changed, whose view directories must be brought in line.
    public func trust(for app: AppID, fingerprint: String, changedAlbums: Set<AlbumTree.ID>) -> ViewTrust? {
        guard fingerprint == self.fingerprint, let stamps = directories[app], !stamps.isEmpty else { return nil }
        return ViewTrust(stamps: stamps, sentinel: sentinel, changedAlbums: changedAlbums)
    }
}

/// Which of one app's view directories a start takes as right without reading them (`ViewStamps`).
public struct ViewTrust: Sendable, Equatable {
    let stamps: [AlbumTree.ID: ViewStamp]
    let sentinel: Int64
    let changedAlbums: Set<AlbumTree.ID>

    /// Whether the directory mirroring `album`, stamped `now`, holds what it should: its album is
    /// unchanged in the index, and the directory is as the clean stop left it, untouched since.
    public func trusts(_ album: AlbumTree.ID, now: ViewStamp) -> Bool {
        guard !changedAlbums.contains(album), let then = stamps[album] else { return false }
        return then == now && then.changeTime < sentinel
    }
}
