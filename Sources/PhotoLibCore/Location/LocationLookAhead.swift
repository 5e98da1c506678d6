/// Which files of a batch are looked at for a location before the transaction
/// that indexes them, so that the derivative copies (SPEC §9) are made outside
/// any database transaction.
///
/// What an app without location is told of a new file (its copy's size, or
/// nothing) depends on the copy, and is recorded in the same transaction as
/// the index change. Copying inside it held the write lock for a file copy and
/// an exiv2 rewrite per photo. Looked at first, by the file's identity, the
/// transaction only adopts what was made; a file the look-ahead missed (it
/// changed in between, or was not expected to be granted) is still looked at
/// there, so the answer stays right when the plan is not.
public enum LocationLookAhead {
    /// The complete files a batch brings into the library or changes the
    /// content of: written, moved in, or renamed onto a name (an atomic save);
    /// and those whose attributes changed (a chmod may make a withheld file
    /// readable, a touch makes its check stale), since the transaction looks at
    /// nothing itself. A plain rename keeps a member's check (same inode, size
    /// and time) and needs no look; a created file is not complete until its close.
    public static func files(in batch: [WatchEvent], policy: AssetNamePolicy) -> [RelativePath] {
        var seen = Set<RelativePath>()
        var out: [RelativePath] = []
        for event in batch {
            let path: RelativePath
            switch event {
            case .fileWritten(let written), .attributesChanged(let written): path = written
            case .movedIn(let arrived, isDirectory: false): path = arrived
            case .moved(let from, let to, isDirectory: false):
                // A rename between two media names is the same member moving; onto one from a
                // name the index does not keep (`.a.jpg.tmp`) it is new content: an atomic save.
                guard let fromName = from.lastComponent, policy.mediaType(of: fromName) == nil || !LibraryScope.contains(from) else { continue }
                path = to
            default: continue
            }
            guard let name = path.lastComponent, LibraryScope.contains(path), policy.mediaType(of: name) != nil,
                  seen.insert(path).inserted else { continue }
            out.append(path)
        }
        return out
    }
}

extension LocationLookAhead {
    /// A directory whose listing the index takes files from in this batch.
    public struct Directory: Sendable, Equatable {
        public var path: RelativePath
        /// New to the library (created, or moved in): every file below it is new.
        /// Otherwise it is listed again, and only the files not indexed yet are new.
        public var isNew: Bool

        public init(path: RelativePath, isNew: Bool) {
            self.path = path
            self.isNew = isNew
        }
    }

    /// The directories a batch makes the index list: created or moved in (walked
    /// with everything below), and those whose attributes changed (listed again:
    /// what could not be read before may be now).
    public static func directories(in batch: [WatchEvent]) -> [Directory] {
        var out: [Directory] = []
        for event in batch {
            switch event {
            case .directoryCreated(let path), .movedIn(let path, isDirectory: true):
                out.append(Directory(path: path, isNew: true))
            case .moved(let from, let to, isDirectory: true) where !LibraryScope.isAlbum(from):
                out.append(Directory(path: to, isNew: true))  // back from a hidden folder (a trash): new again
            case .directoryAttributesChanged(let path), .directoryChanged(let path):
                out.append(Directory(path: path, isNew: false))
            default: continue
            }
        }
        return out.filter { LibraryScope.isAlbum($0.path) }
    }
}

extension ViewPolicy {
    /// Whether a file may be granted by this policy before it is indexed:
    /// `ancestry` is its nearest existing album and those above it, and
    /// `isIndexed` says whether a member is already at its path (whose asset
    /// a single selection may hold). Errs towards yes: a yes costs a look, a
    /// wrong no only a look inside the transaction.
    public func mayGrant(fileIn ancestry: [AlbumTree.ID], isIndexed: Bool) -> Bool {
        switch layout {
        case .empty: false
        case .full: true
        case .limited:
            ancestry.contains(where: selectedAlbums.contains) || !selectedRules.isEmpty || (isIndexed && !selectedAssets.isEmpty)
        }
    }
}
