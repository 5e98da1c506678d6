public import PhotoLibCore

/// One entry from a directory listing, straight from `getdents` (no `stat`).
public struct DirectoryEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symlink, other
        /// The filesystem did not say (`DT_UNKNOWN`): ask `fstatat`.
        case unknown
    }

    public let name: FileName
    public let inode: UInt64
    public let kind: Kind
}
