/// What a verification round's look at one directory asks of the index: the pure half of a round,
/// which the daemon carries out off the engine and hands over as watch events.
public enum RoundJudgement {
    /// What to do with a directory the round looked at.
    public enum Directory: Sendable, Equatable {
        /// Gone: its parent's listing (or its own watch) says where it went.
        case gone
        /// List it again (`WatchEvent.directoryChanged`): its entries may have changed, or it cannot
        /// be read now, which the listing records (its rows are kept as they were).
        case list
        /// Its entries are as they were: each indexed file's own stat shows an edit.
        case statFiles
    }

    public static func directory(recorded: DirectoryStamp?, found: Lookup<FileObservation>) -> Directory {
        switch found {
        case .gone: .gone
        case .unreadable: .list
        case .found(let directory) where directory.kind != .directory: .gone
        case .found(let directory): DirectoryStamp.mustList(recorded: recorded, found: directory.facts) ? .list : .statFiles
        }
    }

    /// What an indexed file's own stat asks for, in a directory whose entries seemed as they were.
    public enum File: Sendable, Equatable {
        case unchanged
        /// Edited, chmodded or unreadable since it was indexed: its event (`WatchEvent.attributesChanged`).
        case changed
        /// Gone: the directory's entries did change (its stamp came from a cache older than this stat):
        /// it is listed again, so that a file renamed there is known again under its new name.
        case gone
    }

    public static func file(known: IndexedFile, found: Lookup<FileObservation>, daemonUID: UInt32) -> File {
        switch FileRefresh.decide(known: known, found: found, admission: .never, daemonUID: daemonUID) {
        case .nothing: .unchanged
        case .delete: .gone
        case .insert, .update, .keep: .changed
        }
    }

    /// Whether a directory's listing, made for a round, can be believed: every entry it names could be
    /// looked up, and everything the index knows there that it lacks is gone by its own stat. A network
    /// filesystem answers listings and stats from caches of their own (sshfs keeps each for
    /// `dcache_timeout`): a listing older than the stats (or newer) would take a file renamed on the
    /// server for one gone and another new. One that disagrees changes nothing; the next round lists again.
    ///
    /// - Parameter lacking: the stat of each known name (file or album) the listing lacks; nil where none was made.
    public static func listingAgrees(_ entries: [DirectoryPlan.Entry], known: Set<FileName>,
                                     lacking: (FileName) -> Lookup<FileObservation>?) -> Bool {
        var listed = Set<FileName>()
        for entry in entries {
            listed.insert(entry.name)
            if case .file(.gone) = entry.kind { return false }  // named, yet gone by its own stat
        }
        for name in known where !listed.contains(name) {
            guard case .gone? = lacking(name) else { return false }  // there by its own stat, or not looked at
        }
        return true
    }
}
