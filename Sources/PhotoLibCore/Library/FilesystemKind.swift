/// Which filesystem a directory is on (`statfs`'s `f_type`), and what that means for photolibd:
/// whether a server stands behind it that can stop answering, so a call into it may block for as
/// long as the server is away.
///
/// A network filesystem (NFS, SMB, 9p, Ceph, AFS, …) or a FUSE one (sshfs, rclone, …) is remote:
/// the engine makes every look at such a library on a thread of its own. On a local filesystem
/// the look is made where it is needed, without a hop between threads (each costs a wake-up,
/// measured at 0.1 ms or more between a file's close and its event).
public struct FilesystemKind: Sendable, Equatable, CustomStringConvertible {
    /// `f_type` as `statfs` gives it (its low 32 bits).
    public let magic: UInt32

    public init(magic: UInt) {
        self.magic = UInt32(truncatingIfNeeded: magic)
    }

    private static let known: [UInt32: (name: String, remote: Bool)] = [
        0xEF53: ("ext4", false), 0x9123_683E: ("btrfs", false), 0x5846_5342: ("xfs", false), 0x0102_1994: ("tmpfs", false),
        0x794C_7630: ("overlayfs", false), 0x2FC1_2FC1: ("zfs", false), 0xCA45_1A4E: ("bcachefs", false),
        0xF2F5_2010: ("f2fs", false), 0x0000_4D44: ("vfat", false), 0x5346_544E: ("ntfs", false), 0x2011_BAB0: ("exfat", false),
        0x6969: ("nfs", true), 0x517B: ("smb", true), 0xFF53_4D42: ("cifs", true), 0xFE53_4D42: ("smb2", true),
        0x6573_5546: ("fuse", true), 0x0102_1997: ("9p", true), 0x00C3_6400: ("ceph", true), 0x6B41_4653: ("afs", true),
        0x5346_414F: ("afs", true), 0x7375_7245: ("coda", true), 0x0BD0_0BD0: ("lustre", true), 0x2003_0528: ("orangefs", true),
        0x0116_1970: ("gfs2", true), 0x7461_636F: ("ocfs2", true),
    ]

    /// Its usual name ("ext4", "nfs", "fuse"), or its type in hexadecimal.
    public var name: String { Self.known[magic]?.name ?? "0x" + String(magic, radix: 16) }

    /// Whether a server stands behind it (network and FUSE filesystems), so a call may block until it answers.
    /// An unknown type is taken as local: the kernel's own filesystems are the many, and a remote one
    /// taken for local costs blocking, never a wrong answer.
    public var isRemote: Bool { Self.known[magic]?.remote ?? false }

    /// Whether its inode numbers name its files, so that a file moved while nobody watched is known
    /// again by its number. FUSE filesystems (sshfs, rclone) and SMB make numbers up: a file renamed
    /// on the server gets another (`FileIdentity.Content` is what is compared there instead).
    public var trustsInodeNumbers: Bool {
        switch name {
        case "fuse", "smb", "cifs", "smb2": false
        default: true
        }
    }

    /// Whether a directory's link count is 2 plus its sub-directories (each one's `..`), as on
    /// ext4, XFS and tmpfs; btrfs gives 1, and network and FUSE filesystems give what they like.
    public var countsSubdirectoriesInLinks: Bool {
        switch name {
        case "ext4", "xfs", "tmpfs": true
        default: false
        }
    }

    /// Whether a directory with this link count surely has no sub-directory, so need not be listed
    /// to find them (find's leaf optimisation, only where the count means it).
    public func provesNoSubdirectories(linkCount: UInt64) -> Bool {
        countsSubdirectoriesInLinks && linkCount == 2
    }

    public var description: String { name }
}
