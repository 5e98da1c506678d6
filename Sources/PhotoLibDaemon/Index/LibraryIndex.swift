import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Keeps the SQLite index equal to the library: applies watch events and scans.
///
/// Identity rules (SPEC §2): an asset keeps its ID when renamed or moved
/// (paired rename events), when its album is renamed or moved (one album row
/// changes), and when a file is renamed over it (an atomic save: the ID stays,
/// the content counts as changed). Owned by the engine; not thread-safe.
final class LibraryIndex {
    let store: Store
    let policy: AssetNamePolicy
    let access: LibraryAccess
    let board: StatusBoard
    let logger: Logger
    private(set) var albums: AlbumTree
    private var generator = SystemRandomNumberGenerator()

    init(store: Store, policy: AssetNamePolicy, access: LibraryAccess, board: StatusBoard, logger: Logger) throws {
        self.store = store
        self.policy = policy
        self.access = access
        self.board = board
        self.logger = logger
        albums = try store.read { try $0.albumTree() }
    }

    /// Where an asset is now, for view changes.
    func locate(_ record: AssetRecord) -> LocatedAsset? {
        guard let albumPath = albums.path(of: record.album) else { return nil }
        return LocatedAsset(record: record, path: albumPath.appending(record.name), ancestry: albums.ancestry(of: record.album))
    }

    // MARK: Events

    /// What a batch of events asks of the engine beyond the index changes.
    struct Outcome {
        var needsFullScan = false
        /// The kernel dropped events: what happened meanwhile is unknown.
        var overflowed = false
        var rootGone = false
        var failedWatches: [RelativePath] = []
    }

    /// Applies a batch of watch events in one transaction; `inTransaction`
    /// runs at its end with the recorded changes (to log them atomically).
    func apply(
        _ events: [WatchEvent], recorder: ChangeRecorder,
        inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }
    ) throws -> Outcome {
        var outcome = Outcome()
        defer { access.invalidate() }
        try store.write { tx in
            for event in events {
                switch event {
                case .fileWritten(let path), .movedIn(let path, isDirectory: false):
                    try refreshFile(path, tx: tx, recorder: recorder, mayCreate: { _ in true })
                case .fileCreated(let path):
                    // IN_CREATE alone is a file still being written, unless it
                    // arrived by link(2), which sends nothing more: count it then.
                    try refreshFile(path, tx: tx, recorder: recorder, mayCreate: { $0.linkCount > 1 })
                case .attributesChanged(let path):
                    try refreshFile(path, tx: tx, recorder: recorder, mayCreate: { _ in false })
                case .moved(let from, let to, isDirectory: false):
                    try moveFile(from: from, to: to, tx: tx, recorder: recorder)
                case .moved(let from, let to, isDirectory: true):
                    try moveAlbum(from: from, to: to, tx: tx, recorder: recorder)
                case .movedIn(let path, isDirectory: true), .directoryCreated(let path):
                    try scanNewDirectory(path, tx: tx, recorder: recorder)
                case .removed(let path, let isDirectory):
                    if isDirectory {
                        try removeAlbum(path, tx: tx, recorder: recorder)
                    } else {
                        try removeFile(path, tx: tx, recorder: recorder)
                    }
                case .watchesReady:
                    outcome.needsFullScan = true
                case .overflow:
                    outcome.needsFullScan = true
                    outcome.overflowed = true
                case .rootGone:
                    outcome.rootGone = true
                case .watchFailed(let path, _):
                    outcome.failedWatches.append(path)
                }
            }
            try inTransaction(tx, recorder)
        }
        return outcome
    }

    private func refreshFile(
        _ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder, mayCreate: (FileStatus) -> Bool
    ) throws {
        guard let name = path.lastComponent, let mediaType = policy.mediaType(of: name) else { return }
        guard let album = try ensureAlbum(path.parent ?? .root, tx: tx, recorder: recorder) else { return }
        let existing = try tx.asset(album: album, name: name)
        guard let status = access.status(path), status.kind == .regular else {
            if let existing { try delete(existing, tx: tx, recorder: recorder) }
            return
        }
        let facts = FileFacts(status)
        if var existing {
            guard existing.file != facts else { return }
            let old = locate(existing)
            existing.file = facts
            try tx.updateAsset(existing)
            recorder.record(.asset(old: old, new: locate(existing)))
            return
        }
        guard mayCreate(status) else { return }
        let record = try tx.insertAsset(album: album, name: name, mediaType: mediaType, file: facts, generator: &generator)
        recorder.record(.asset(old: nil, new: locate(record)))
    }

    private func moveFile(from: RelativePath, to: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        let source = try asset(at: from, tx: tx)
        guard let toName = to.lastComponent else { return }
        let toType = policy.mediaType(of: toName)
        let toAlbum = toType == nil ? nil : try ensureAlbum(to.parent ?? .root, tx: tx, recorder: recorder)
        let destination = try toAlbum.flatMap { try tx.asset(album: $0, name: toName) }

        if var destination {
            // Renamed over an asset (an atomic save): the asset keeps its ID.
            if let source, source.rowID != destination.rowID {
                try delete(source, tx: tx, recorder: recorder)
            }
            guard let status = access.status(to), status.kind == .regular else {
                try delete(destination, tx: tx, recorder: recorder)
                return
            }
            let old = locate(destination)
            destination.file = FileFacts(status)
            try tx.updateAsset(destination)
            recorder.record(.asset(old: old, new: locate(destination)))
            return
        }
        guard var moved = source else {
            // Not an asset before (a temporary name): the file arrives now.
            try refreshFile(to, tx: tx, recorder: recorder, mayCreate: { _ in true })
            return
        }
        guard let toType, let toAlbum else {
            try delete(moved, tx: tx, recorder: recorder)  // renamed to a name that is not an asset
            return
        }
        let old = locate(moved)
        moved.album = toAlbum
        moved.name = toName
        moved.mediaType = toType
        if let status = access.status(to), status.kind == .regular {
            moved.file = FileFacts(status)
        }
        try tx.updateAsset(moved)
        recorder.record(.asset(old: old, new: locate(moved)))
    }

    private func moveAlbum(from: RelativePath, to: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        access.invalidate()
        guard let id = albums.album(at: from), id != AlbumTree.rootID else {
            try scanNewDirectory(to, tx: tx, recorder: recorder)
            return
        }
        guard let newName = to.lastComponent,
              let newParent = try ensureAlbum(to.parent ?? .root, tx: tx, recorder: recorder) else {
            try removeAlbum(from, tx: tx, recorder: recorder)
            return
        }
        if let replaced = albums.child(of: newParent, named: newName), replaced != id {
            try removeAlbum(to, tx: tx, recorder: recorder)
        }
        try tx.moveAlbum(id, parent: newParent, name: newName)
        albums.move(id, toParent: newParent, name: newName)
        recorder.record(.albumMoved(from: from, to: to))
    }

    private func removeAlbum(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        access.invalidate()
        guard let id = albums.album(at: path), id != AlbumTree.rootID else { return }
        if recorder.isRecording {
            for record in try tx.assets(inAlbums: albums.subtree(of: id)) {
                recorder.record(.asset(old: locate(record), new: nil))
            }
        }
        try tx.deleteAlbum(id)
        albums.remove(id)
        recorder.record(.albumRemoved(path))
    }

    private func removeFile(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        if let record = try asset(at: path, tx: tx) {
            try delete(record, tx: tx, recorder: recorder)
        }
    }

    private func delete(_ record: AssetRecord, tx: StoreTransaction, recorder: ChangeRecorder, located: LocatedAsset?? = nil) throws {
        let old = located ?? locate(record)
        try tx.deleteAsset(rowID: record.rowID)
        recorder.record(.asset(old: old, new: nil))
    }

    private func asset(at path: RelativePath, tx: StoreTransaction) throws -> AssetRecord? {
        guard let name = path.lastComponent, let album = albums.album(at: path.parent ?? .root) else { return nil }
        return try tx.asset(album: album, name: name)
    }

    /// The album for a directory path, creating rows for directories that exist on disk but not yet in the index.
    func ensureAlbum(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws -> AlbumTree.ID? {
        var current = AlbumTree.rootID
        var walked = RelativePath.root
        for component in path.components {
            walked = walked.appending(component)
            if let next = albums.child(of: current, named: component) {
                current = next
                continue
            }
            guard access.status(walked)?.kind == .directory else { return nil }
            let id = try tx.insertAlbum(parent: current, name: component)
            albums.insert(id: id, parent: current, name: component)
            recorder.record(.albumCreated(walked))
            current = id
        }
        return current
    }

    // MARK: Scans

    /// Scans a directory that appeared (created, or moved in) and everything below it.
    private func scanNewDirectory(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        guard let album = try ensureAlbum(path, tx: tx, recorder: recorder),
              let fd = access.directory(path).flatMap({ try? Directory.duplicate($0) }) else { return }
        var pending: [(AlbumTree.ID, FileDescriptor, RelativePath)] = [(album, fd, path)]
        while let (id, directory, directoryPath) = pending.popLast() {
            defer { directory.close() }
            let result = try reconcileDirectory(id, directory, directoryPath, tx: tx, recorder: recorder)
            for (record, located) in result.vanished { try delete(record, tx: tx, recorder: recorder, located: located) }
            pending += result.subdirectories
        }
    }

    struct DirectoryResult {
        var subdirectories: [(AlbumTree.ID, FileDescriptor, RelativePath)] = []
        /// Assets no longer present, with where they were.
        var vanished: [(AssetRecord, LocatedAsset?)] = []
        var files = 0
    }

    /// Brings one directory's rows in line with its listing.
    ///
    /// New and changed files are written; sub-directories are returned open
    /// for the caller to descend into; assets no longer present are returned
    /// as `vanished` for the caller to delete or match by inode.
    func reconcileDirectory(
        _ album: AlbumTree.ID, _ directory: FileDescriptor, _ path: RelativePath,
        tx: StoreTransaction, recorder: ChangeRecorder
    ) throws -> DirectoryResult {
        var result = DirectoryResult()
        guard let entries = try? Directory.list(directory) else { return result }
        var known = try tx.indexedFiles(inAlbum: album)
        var knownAlbums = albums.children(of: album)

        for entry in entries {
            if entry.kind == .directory || entry.kind == .unknown {
                if let child = try? Directory.open(entry.name, in: directory) {
                    let childPath = path.appending(entry.name)
                    let childID: AlbumTree.ID
                    if let existing = knownAlbums.removeValue(forKey: entry.name) {
                        childID = existing
                    } else {
                        childID = try tx.insertAlbum(parent: album, name: entry.name)
                        albums.insert(id: childID, parent: album, name: entry.name)
                        recorder.record(.albumCreated(childPath))
                    }
                    result.subdirectories.append((childID, child, childPath))
                    continue
                }
                if entry.kind == .directory { continue }
            }
            guard entry.kind == .regular || entry.kind == .unknown,
                  let mediaType = policy.mediaType(of: entry.name),
                  let status = try? Directory.status(of: entry.name, in: directory),
                  status.kind == .regular else { continue }
            result.files += 1
            let facts = FileFacts(status)
            if let indexed = known.removeValue(forKey: entry.name) {
                if indexed.file != facts, var existing = try tx.asset(rowID: indexed.rowID) {
                    let old = locate(existing)
                    existing.file = facts
                    try tx.updateAsset(existing)
                    recorder.record(.asset(old: old, new: locate(existing)))
                }
            } else {
                let record = try tx.insertAsset(album: album, name: entry.name, mediaType: mediaType, file: facts, generator: &generator)
                recorder.record(.asset(old: nil, new: locate(record)))
            }
        }
        for indexed in known.values {
            if let record = try tx.asset(rowID: indexed.rowID) { result.vanished.append((record, locate(record))) }
        }
        for (_, gone) in knownAlbums {
            guard let gonePath = albums.path(of: gone) else { continue }
            // Keep the rows of vanished assets until the caller decides (a full
            // scan may find the same inode elsewhere): only the album goes now,
            // its assets are parked under hidden names, which no file can have.
            for record in try tx.assets(inAlbums: albums.subtree(of: gone)) {
                result.vanished.append((record, locate(record)))
                var parked = record
                parked.album = AlbumTree.rootID
                parked.name = FileName(".photolibd-vanished-\(record.id.rawValue)")!
                try tx.updateAsset(parked)
            }
            try tx.deleteAlbum(gone)
            albums.remove(gone)
            recorder.record(.albumRemoved(gonePath))
        }
        return result
    }

    /// Walks the whole library and makes the index match it, in one transaction.
    ///
    /// Assets that disappeared from one place and an inode that appeared in
    /// another are the same asset moved while the daemon was not watching:
    /// it keeps its ID (and so its selections).
    func fullScan(recorder: ChangeRecorder, inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }) throws {
        access.invalidate()
        board.update {
            $0.phase = .scanning
            $0.scannedDirectories = 0
            $0.scannedFiles = 0
        }
        // One transaction for the whole walk: a crash midway leaves the old
        // index, and the next start scans again anyway.
        try store.write { tx in
            let watermark = try tx.maxAssetRowID()
            var vanished: [(AssetRecord, LocatedAsset?)] = []
            var pending: [(AlbumTree.ID, FileDescriptor, RelativePath)] = [(AlbumTree.rootID, try Directory.duplicate(access.root), .root)]
            while let (id, directory, path) = pending.popLast() {
                defer { directory.close() }
                let result = try reconcileDirectory(id, directory, path, tx: tx, recorder: recorder)
                vanished += result.vanished
                pending += result.subdirectories
                board.update {
                    $0.scannedDirectories += 1
                    $0.scannedFiles += result.files
                }
            }
            for (gone, goneLocation) in vanished {
                if let arrived = try tx.asset(device: gone.file.device, inode: gone.file.inode, insertedAfter: watermark) {
                    // Same inode: the old asset (ID, selections) takes the new place.
                    try tx.deleteAsset(rowID: arrived.rowID)
                    recorder.record(.asset(old: locate(arrived), new: nil))
                    var moved = gone
                    moved.album = arrived.album
                    moved.name = arrived.name
                    moved.mediaType = arrived.mediaType
                    moved.file = arrived.file
                    try tx.updateAsset(moved)
                    recorder.record(.asset(old: goneLocation, new: locate(moved)))
                } else {
                    try delete(gone, tx: tx, recorder: recorder, located: goneLocation)
                }
            }
            try inTransaction(tx, recorder)
        }
    }
}

extension FileFacts {
    init(_ status: FileStatus) {
        self.init(device: status.device, inode: status.inode, size: status.size,
                  modificationTime: status.modificationTime, permissions: status.permissions)
    }
}
