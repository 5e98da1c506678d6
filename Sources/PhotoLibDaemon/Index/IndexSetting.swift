import Logging
import PhotoLibCore
import PhotoLibStore

/// What the library index is given at start and never changes: the store it writes, the
/// names it takes in, the library's root, the status board, the log, and whose files it may link.
struct IndexSetting {
    let store: Store
    let policy: AssetNamePolicy
    let access: LibraryAccess
    let board: StatusBoard
    let logger: Logger
    /// The uid photolibd runs as: files it does not own are refused (`LinkRefusal`).
    let daemonUID: UInt32
    /// Whether the library's inode numbers name its files (not on FUSE or SMB: `FilesystemKind.trustsInodeNumbers`).
    var trustsInodes = true
}
