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

    /// Whether an indexed file's stat asks for its event (`WatchEvent.attributesChanged`): edited,
    /// chmodded, gone or unreadable since it was indexed, as a watch event would have said.
    public static func fileChanged(known: IndexedFile, found: Lookup<FileObservation>, daemonUID: UInt32) -> Bool {
        FileRefresh.decide(known: known, found: found, admission: .never, daemonUID: daemonUID) != .nothing
    }
}
