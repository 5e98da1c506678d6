/// Whether an opened source may be linked into a view: the last check before the link.
///
/// The daemon opens the original `O_PATH|O_NOFOLLOW`, asks this, and links that
/// very descriptor, so what was checked is what gets linked (SPEC §3).
public enum LinkVerdict: Sendable, Equatable {
    /// Link it.
    case link
    /// Not the file the index knows (replaced, or a symlink or FIFO now): link
    /// nothing; the event that changed it is on its way and decides.
    case notTheIndexedFile
    /// The file itself must never be linked.
    case refuse(LinkRefusal)

    /// Judges what `statx` said of the opened source against the inode the index expects.
    public static func judge(_ opened: FileObservation, expectedInode: UInt64, daemonUID: UInt32) -> LinkVerdict {
        guard opened.kind == .regular, opened.facts.inode == expectedInode else { return .notTheIndexedFile }
        if let refusal = LinkRefusal.judge(opened, daemonUID: daemonUID) { return .refuse(refusal) }
        return .link
    }
}
