/// What the index does for one watch event: the "event → edit" table, decided here and
/// carried out by the daemon's `LibraryIndex` in the batch's transaction.
public enum IndexStep: Sendable, Equatable {
    /// When a file seen at a path not yet indexed becomes an asset.
    public enum Admission: Sendable, Equatable {
        /// Now: it was written and closed, or arrived whole.
        case always
        /// Only when it has more than one link: a name that appeared by link(2) (IN_CREATE,
        /// and nothing more to come); any other is a file still being written.
        case ifHardLinked
        /// Never: only a file already indexed is looked at again.
        case never

        public func admits(_ file: FileObservation) -> Bool {
            switch self {
            case .always: true
            case .ifHardLinked: file.linkCount > 1
            case .never: false
            }
        }
    }

    /// Look at the file at the path again (and index it, when `admission` lets it in).
    case refreshFile(RelativePath, admission: Admission)
    /// Look at a directory's whole subtree anew: its mode changed, so what was unreadable
    /// below may be readable now, or the reverse.
    case rescanSubtree(RelativePath)
    case moveFile(from: RelativePath, to: RelativePath)
    case moveAlbum(from: RelativePath, to: RelativePath)
    /// List one known directory again (a round saw its entries change): files new, changed and gone
    /// there, albums new below it (indexed whole) and gone; its known sub-albums are not listed.
    case relistDirectory(RelativePath)
    /// A directory appeared (created, or moved in from outside): index what it holds.
    case scanNewDirectory(RelativePath)
    case removeFile(RelativePath)
    case removeAlbum(RelativePath)
    /// Only a full scan restores the truth; `overflowed` when events were lost.
    case fullScan(overflowed: Bool)
    case rootGone
    case watchFailed(RelativePath)

    public static func of(_ event: WatchEvent) -> IndexStep {
        switch event {
        case .fileWritten(let path), .movedIn(let path, isDirectory: false): .refreshFile(path, admission: .always)
        case .fileCreated(let path): .refreshFile(path, admission: .ifHardLinked)
        case .attributesChanged(let path): .refreshFile(path, admission: .never)
        case .directoryAttributesChanged(let path): .rescanSubtree(path)
        case .moved(let from, let to, isDirectory: false): .moveFile(from: from, to: to)
        case .moved(let from, let to, isDirectory: true): .moveAlbum(from: from, to: to)
        case .movedIn(let path, isDirectory: true), .directoryCreated(let path): .scanNewDirectory(path)
        case .removed(let path, isDirectory: false): .removeFile(path)
        case .removed(let path, isDirectory: true): .removeAlbum(path)
        case .watchesReady: .fullScan(overflowed: false)
        case .overflow: .fullScan(overflowed: true)
        case .rootGone: .rootGone
        case .watchFailed(let path, _): .watchFailed(path)
        case .directoryChanged(let path): .relistDirectory(path)
        }
    }
}

/// What a file renamed inside the library does to the index.
public enum RenameOutcome: Sendable, Equatable {
    /// Renamed to a name that is no asset (or into a hidden directory): it left the library.
    case leftLibrary
    /// Renamed over a member file (an atomic save): the destination's asset keeps its ID and
    /// takes the new content; the source's row goes when it was another one.
    case replacedMember(removeSource: Bool)
    /// Not an asset before (a temporary name): the file arrives now.
    case arrives
    /// The member moves to its new name, keeping its asset and selections.
    case moves

    /// - Parameters:
    ///   - destinationIsAsset: the new name is in the library and names an asset type.
    ///   - source: the member row at the old name, if any; `destination`: at the new name.
    public static func decide(destinationIsAsset: Bool, source: Int64?, destination: Int64?) -> RenameOutcome {
        guard destinationIsAsset else { return .leftLibrary }
        if let destination { return .replacedMember(removeSource: source.map { $0 != destination } ?? false) }
        return source == nil ? .arrives : .moves
    }
}
