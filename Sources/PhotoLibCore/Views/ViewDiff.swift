/// The link actions that bring one view directory from what it holds to what it should hold.
///
/// Pure: the caller lists the directory and asks the database; this decides.
/// An entry that does not hold its source as it is now (`WantedEntry`: another
/// inode after an atomic save, a clone of an older version, a tampered view) is
/// replaced.
public struct ViewDiff<Key: Hashable & Sendable>: Sendable {
    /// What a directory entry is, as far as the diff cares.
    public enum Present: Sendable, Equatable {
        case file(PresentFile)
        case directory
        /// Symlinks, FIFOs, sockets, devices: never wanted in a view.
        case other
    }

    /// What an entry should be.
    public enum Wanted: Sendable, Equatable {
        case file(WantedEntry)
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
            case (.file(let file), .file(let entry)) where entry.isHeld(by: file): continue
            case (.directory, .directory): continue
            case (.directory, _): removeDirectories.append(key)
            case (.file, _), (.other, _): unlinkFiles.append(key)
            }
        }
        for (key, want) in wanted {
            let have = present[key]
            switch want {
            case .file(let entry):
                if case .file(let file) = have, entry.isHeld(by: file) { continue }
                linkFiles.append(key)
            case .directory:
                if have != .directory { makeDirectories.append(key) }
            }
        }
    }
}
