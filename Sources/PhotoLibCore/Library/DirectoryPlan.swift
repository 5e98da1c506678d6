/// What one directory's listing means for the index: the pure half of a scan.
///
/// The system layer lists a directory and looks up its entries; this type
/// decides, from that answer and what the index knew, which rows to add,
/// change and drop, which albums are new or gone, and what cannot be read. The
/// executor (`LibraryIndex`) only carries it out.
///
/// The rule that protects selections: only an answer that proves absence
/// (`Lookup.gone`, or a listing that lacks the name) removes anything. A
/// directory that cannot be listed keeps every file and album below it, and
/// an entry that cannot be looked up keeps its row.
public struct DirectoryPlan: Sendable, Equatable {
    /// One entry of a directory listing, with what its lookup answered.
    public struct Entry: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A directory (that may be an album).
            case directory
            /// Anything else the listing named, with its `statx`.
            case file(Lookup<FileObservation>)
        }

        public var name: FileName
        public var kind: Kind

        public init(name: FileName, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    public struct NewFile: Sendable, Equatable {
        public var name: FileName
        public var mediaType: MediaType
        public var facts: FileFacts
        public var refusal: LinkRefusal?

        public init(name: FileName, mediaType: MediaType, facts: FileFacts, refusal: LinkRefusal? = nil) {
            self.name = name
            self.mediaType = mediaType
            self.facts = facts
            self.refusal = refusal
        }
    }

    public struct ChangedFile: Sendable, Equatable {
        public var rowID: Int64
        public var name: FileName
        public var facts: FileFacts
        public var refusal: LinkRefusal?
        /// False when only what apps never see changed (a birth time learned): no event.
        public var isVisible: Bool
    }

    /// Something that could not be read; `name == nil` is the directory itself.
    public struct Unreadable: Sendable, Equatable {
        public var name: FileName?
        public var failure: FileSystemFailure

        public init(name: FileName?, failure: FileSystemFailure) {
            self.name = name
            self.failure = failure
        }
    }

    public var newFiles: [NewFile] = []
    public var changedFiles: [ChangedFile] = []
    /// Rows whose file is proven gone (the caller may still match them by inode elsewhere).
    public var vanishedFiles: [Int64] = []
    /// Sub-directories to add as albums, then descend into.
    public var newAlbums: [FileName] = []
    /// Known albums still there: descend into them.
    public var keptAlbums: [FileName: AlbumTree.ID] = [:]
    /// Known albums proven gone (or no longer albums: renamed to a hidden name).
    public var goneAlbums: [AlbumTree.ID] = []
    public var unreadable: [Unreadable] = []
    /// Asset files seen (for progress figures).
    public var fileCount = 0
    /// Whether the album's Live Photo pairs must be looked at again (`LivePairing.mayGroup`, or a file gone).
    public var mayChangePairs = false

    public init() {}

    /// Plans one directory.
    ///
    /// - Parameters:
    ///   - listing: the directory's entries, or why it could not be listed.
    ///   - knownFiles: the index's files in this album, by name.
    ///   - knownAlbums: the index's sub-albums of this album, by name.
    ///   - daemonUID: the uid photolibd runs as (for `LinkRefusal.judge`).
    public static func plan(
        listing: Lookup<[Entry]>, knownFiles: [FileName: IndexedFile], knownAlbums: [FileName: AlbumTree.ID],
        policy: AssetNamePolicy, daemonUID: UInt32
    ) -> DirectoryPlan {
        var plan = DirectoryPlan()
        let entries: [Entry]
        switch listing {
        case .unreadable(let failure):
            plan.unreadable = [Unreadable(name: nil, failure: failure)]
            return plan
        case .gone:
            entries = []
        case .found(let listed):
            entries = listed
        }
        var unlistedFiles = knownFiles
        var unlistedAlbums = knownAlbums
        for entry in entries {
            switch entry.kind {
            case .directory:
                guard LibraryScope.isAlbumName(entry.name) else { continue }
                if let known = unlistedAlbums.removeValue(forKey: entry.name) {
                    plan.keptAlbums[entry.name] = known
                } else {
                    plan.newAlbums.append(entry.name)
                }
            case .file(let lookup):
                guard let mediaType = policy.mediaType(of: entry.name) else { continue }
                switch lookup {
                case .gone:
                    continue  // deleted between the listing and the lookup
                case .unreadable(let failure):
                    unlistedFiles.removeValue(forKey: entry.name)  // kept as it was
                    plan.unreadable.append(Unreadable(name: entry.name, failure: failure))
                case .found(let found):
                    guard found.kind == .regular else { continue }  // a symlink or FIFO is never an asset
                    plan.fileCount += 1
                    // Judged afresh: a refusal the kernel gave at link time is
                    // retried on every scan (after `chattr -i`, say).
                    let refusal = LinkRefusal.judge(found, daemonUID: daemonUID)
                    if let indexed = unlistedFiles.removeValue(forKey: entry.name) {
                        let visible = indexed.file.differs(from: found.facts) || indexed.refusal != refusal
                        if visible || indexed.file != found.facts {
                            plan.changedFiles.append(ChangedFile(rowID: indexed.rowID, name: entry.name, facts: found.facts,
                                                                 refusal: refusal, isVisible: visible))
                        }
                    } else {
                        plan.newFiles.append(NewFile(name: entry.name, mediaType: mediaType, facts: found.facts, refusal: refusal))
                    }
                }
            }
        }
        plan.vanishedFiles = unlistedFiles.values.map(\.rowID).sorted()
        plan.goneAlbums = unlistedAlbums.values.sorted()
        plan.mayChangePairs = !plan.vanishedFiles.isEmpty
            || LivePairing.mayGroup(newNames: plan.newFiles.lazy.map(\.name), besides: knownFiles.keys)
        return plan
    }
}
