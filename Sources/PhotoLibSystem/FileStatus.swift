import Glibc

/// The facts photolibd needs from `lstat`/`fstatat`.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symlink, other
    }

    public let kind: Kind
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    /// Modification time in nanoseconds since the epoch.
    public let modificationTime: Int64
    /// Permission bits (`st_mode & 07777`).
    public let permissions: UInt32
    public let linkCount: UInt64
    public let owner: UInt32
    public let group: UInt32
    /// A Unix socket (`kind` is `.other` for it).
    public let isSocket: Bool

    init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modificationTime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        permissions = UInt32(st.st_mode & 0o7777)
        linkCount = UInt64(st.st_nlink)
        owner = st.st_uid
        group = st.st_gid
        isSocket = st.st_mode & S_IFMT == S_IFSOCK
    }

    /// True when someone other than the owner may write the inode through any hardlink.
    public var isWritableByOthers: Bool { permissions & 0o022 != 0 }
}
