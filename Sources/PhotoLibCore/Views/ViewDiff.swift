/// The link actions that bring one view directory from what it holds to what it should hold.
///
/// Pure: the caller lists the directory and asks the database; this decides.
/// An entry whose inode differs from the wanted one (an atomic save replaced
/// the original, or someone tampered with the view) is removed and linked again.
public struct ViewDiff<Key: Hashable & Sendable>: Sendable {
    /// What a directory entry is, as far as the diff cares.
    public enum Present: Sendable, Equatable {
        case file(inode: UInt64)
        case directory
        /// Symlinks, FIFOs, sockets, devices: never wanted in a view.
        case other
    }

    /// What an entry should be.
    public enum Wanted: Sendable, Equatable {
        case file(inode: UInt64)
        case directory
    }

    public var unlinkFiles: [Key] = []
    public var removeDirectories: [Key] = []
    public var linkFiles: [Key] = []
    public var makeDirectories: [Key] = []

    public var isEmpty: Bool {
        unlinkFiles.isEmpty && removeDirectories.isEmpty && linkFiles.isEmpty && makeDirectories.isEmpty
    }

    public init(present: [Key: Present], wanted: [Key: Wanted]) {
        for (key, have) in present {
            switch (have, wanted[key]) {
            case (.file(let a), .file(let b)) where a == b: continue
            case (.directory, .directory): continue
            case (.directory, _): removeDirectories.append(key)
            case (.file, _), (.other, _): unlinkFiles.append(key)
            }
        }
        for (key, want) in wanted {
            let have = present[key]
            switch want {
            case .file(let inode):
                if have != .file(inode: inode) { linkFiles.append(key) }
            case .directory:
                if have != .directory { makeDirectories.append(key) }
            }
        }
    }
}
