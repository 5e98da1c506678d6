import CSystemShims
import Glibc
public import PhotoLibCore

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
    /// Status change time (ctime) in nanoseconds since the epoch: set by the kernel at every change
    /// to the inode or, for a directory, to its entries, and settable by no one but root.
    public let changeTime: Int64
    /// Permission bits (`st_mode & 07777`).
    public let permissions: UInt32
    public let linkCount: UInt64
    public let owner: UInt32
    public let group: UInt32
    /// A Unix socket (`kind` is `.other` for it).
    public let isSocket: Bool
    /// Birth time in nanoseconds since the epoch, where the filesystem keeps one
    /// (ext4, btrfs, xfs): with the inode number, it tells a file from a later
    /// one that was given the same, freed, number.
    public let birthTime: Int64?

    init(_ st: photolibd_file_status) {
        switch st.mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): kind = .regular
        case UInt32(S_IFDIR): kind = .directory
        case UInt32(S_IFLNK): kind = .symlink
        default: kind = .other
        }
        device = st.device
        inode = st.inode
        size = st.size
        modificationTime = st.mtime_sec * 1_000_000_000 + Int64(st.mtime_nsec)
        changeTime = st.ctime_sec * 1_000_000_000 + Int64(st.ctime_nsec)
        permissions = st.mode & 0o7777
        linkCount = st.nlink
        owner = st.uid
        group = st.gid
        isSocket = st.mode & UInt32(S_IFMT) == UInt32(S_IFSOCK)
        birthTime = st.has_btime != 0 ? st.btime_sec * 1_000_000_000 + Int64(st.btime_nsec) : nil
    }

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
        changeTime = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        permissions = UInt32(st.st_mode & 0o7777)
        linkCount = UInt64(st.st_nlink)
        owner = st.st_uid
        group = st.st_gid
        isSocket = st.st_mode & S_IFMT == S_IFSOCK
        birthTime = nil
    }

    /// True when someone other than the owner may write the inode through any hardlink.
    public var isWritableByOthers: Bool { permissions & 0o022 != 0 }
}

extension FileStatus {
    /// The status in the core's terms, for its planners.
    public var observation: FileObservation {
        let observedKind: FileObservation.Kind
        switch kind {
        case .regular: observedKind = .regular
        case .directory: observedKind = .directory
        case .symlink: observedKind = .symlink
        case .other: observedKind = .other
        }
        return FileObservation(kind: observedKind, facts: facts, owner: owner, linkCount: linkCount)
    }

    /// What the index keeps of this inode.
    public var facts: FileFacts {
        FileFacts(device: device, inode: inode, birthTime: birthTime, size: size,
                  modificationTime: modificationTime, permissions: permissions)
    }
}
