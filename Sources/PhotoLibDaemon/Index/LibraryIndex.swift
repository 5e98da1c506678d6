import Glibc
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
///
/// An asset is an ID and its member files: one file, or the image and video
/// of a Live Photo. File events change members; after each batch or scan,
/// the stems they touched are paired again (`LivePairing`).
///
/// What an event or a listing *means* is decided by the core (`FileRefresh`,
/// `DirectoryPlan`, `FileIdentity`, `LibraryScope`, `LivePairing`); this type
/// looks things up, asks, and writes the answer to the store.
final class LibraryIndex {
    let store: Store
    let policy: AssetNamePolicy
    let access: LibraryAccess
    let board: StatusBoard
    let logger: Logger
    private(set) var albums: AlbumTree
    private var generator = SystemRandomNumberGenerator()
    /// The uid photolibd runs as: files it does not own are refused (`LinkRefusal`).
    let daemonUID: UInt32
    /// Library paths that could not be read at the last look, and why: their
    /// rows are kept as they were, and `status` says `degraded` until they can be read.
    private(set) var unreadable: [RelativePath: FileSystemFailure] = [:] {
        didSet { publishUnreadable() }
    }
    /// Stems whose files changed in the current batch, by album: paired again at its end.
    private var touchedStems: [AlbumTree.ID: Set<[UInt8]>] = [:]
    /// Albums whose every file is paired again at the end of the batch (scanned ones).
    private var touchedAlbums: Set<AlbumTree.ID> = []
    /// Set while some app has a rule grant: new and changed files are looked at for when they were taken.
    var captureClock: CaptureClock?

    init(store: Store, policy: AssetNamePolicy, access: LibraryAccess, board: StatusBoard, ownerUID: UInt32, logger: Logger) throws {
        daemonUID = ownerUID
        self.store = store
        self.policy = policy
        self.access = access
        self.board = board
        self.logger = logger
        albums = try store.read { try $0.albumTree() }
    }

    /// The asset as it stands in the store now, when changes are being recorded.
    private func snapshot(_ asset: Int64, tx: StoreTransaction, recorder: ChangeRecorder) throws -> LocatedAsset? {
        guard recorder.isRecording else { return nil }
        return try tx.asset(rowID: asset).flatMap(locate)
    }

    private func touch(_ album: AlbumTree.ID, _ name: FileName) {
        touchedStems[album, default: []].insert(name.stem)
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
        // Descriptors opened since the last batch (by view links, say) may
        // predate a chmod: an open directory lists whatever its mode is now.
        access.invalidate()
        defer { access.invalidate() }
        try store.write { tx in
            for event in events {
                switch IndexStep.of(event) {
                case .refreshFile(let path, let admission):
                    try refreshFile(path, tx: tx, recorder: recorder, admission: admission)
                case .rescanSubtree(let path):
                    // Readable again (or no longer): look at the whole subtree anew.
                    access.invalidate()
                    let wasUnreadable = unreadable.keys.contains(where: { $0.isWithin(path) })
                    if albums.album(at: path) != nil || wasUnreadable {
                        try scanNewDirectory(path, tx: tx, recorder: recorder)
                    }
                    if wasUnreadable, !unreadable.keys.contains(where: { $0.isWithin(path) }), let album = albums.album(at: path) {
                        // Links that could not be made while it was unreadable (a
                        // selection edited meanwhile) are made now: each asset
                        // below is offered to the views again, unchanged.
                        for record in try tx.assets(inAlbums: albums.subtree(of: album)) {
                            recorder.record(.asset(old: locate(record), new: locate(record)))
                        }
                    }
                case .moveFile(let from, let to):
                    try moveFile(from: from, to: to, tx: tx, recorder: recorder)
                case .moveAlbum(let from, let to):
                    try moveAlbum(from: from, to: to, tx: tx, recorder: recorder)
                case .scanNewDirectory(let path):
                    try scanNewDirectory(path, tx: tx, recorder: recorder)
                case .removeAlbum(let path):
                    try removeAlbum(path, tx: tx, recorder: recorder)
                case .removeFile(let path):
                    try removeFile(path, tx: tx, recorder: recorder)
                case .fullScan(let overflowed):
                    outcome.needsFullScan = true
                    if overflowed { outcome.overflowed = true }
                case .rootGone:
                    outcome.rootGone = true
                case .watchFailed(let path):
                    outcome.failedWatches.append(path)
                }
            }
            try pairTouched(tx: tx, recorder: recorder)
            try inTransaction(tx, recorder)
        }
        return outcome
    }

    private func refreshFile(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder, admission: IndexStep.Admission) throws {
        guard LibraryScope.contains(path), let name = path.lastComponent, let mediaType = policy.mediaType(of: name) else { return }
        guard let album = try ensureAlbum(path.parent ?? .root, tx: tx, recorder: recorder) else { return }
        let existing = try tx.member(album: album, name: name)
        let known = existing.map { IndexedFile(rowID: $0.rowID, file: $0.file, refusal: $0.refusal) }
        switch FileRefresh.decide(known: known, found: access.lookUp(path), admission: admission, daemonUID: daemonUID) {
        case .nothing:
            return
        case .keep(let failure):
            unreadable[path] = failure
        case .delete:
            markReadable(path)
            if let existing { try delete(existing, tx: tx, recorder: recorder) }
        case .update(let facts, let refusal, let isVisible):
            markReadable(path)
            guard var existing else { return }
            let old = try snapshot(existing.asset, tx: tx, recorder: recorder)
            let contentChanged = existing.file.inode != facts.inode || existing.file.size != facts.size
                || existing.file.modificationTime != facts.modificationTime
            existing.file = facts
            existing.refusal = refusal
            try tx.updateMember(existing)
            try noteCaptureTime(&existing, contentChanged: contentChanged, tx: tx)
            if isVisible { recorder.record(.asset(old: old, new: try snapshot(existing.asset, tx: tx, recorder: recorder))) }
        case .insert(let facts, let refusal):
            markReadable(path)
            var asset = try tx.insertAsset(album: album, name: name, mediaType: mediaType, file: facts, refusal: refusal,
                                           generator: &generator)
            try noteCaptureTime(&asset.members[0], tx: tx)
            touch(album, name)
            // As stored, so not read back; pairing (after the batch) records any join.
            if recorder.isRecording { recorder.record(.asset(old: nil, new: locate(asset))) }
        }
    }

    private func moveFile(from: RelativePath, to: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        let source = try member(at: from, tx: tx)
        markReadable(from)
        let toName = to.lastComponent, toType = toName.flatMap(policy.mediaType(of:))
        let toAlbum = LibraryScope.contains(to) && toType != nil ? try ensureAlbum(to.parent ?? .root, tx: tx, recorder: recorder) : nil
        let destination = try toAlbum.flatMap { album in try toName.flatMap { try tx.member(album: album, name: $0) } }
        switch RenameOutcome.decide(destinationIsAsset: toAlbum != nil, source: source?.rowID, destination: destination?.rowID) {
        case .leftLibrary:
            if let source { try delete(source, tx: tx, recorder: recorder) }
            return
        case .replacedMember(let removeSource):
            if removeSource, let source { try delete(source, tx: tx, recorder: recorder) }
            try refreshFile(to, tx: tx, recorder: recorder, admission: .never)
            return
        case .arrives:
            try refreshFile(to, tx: tx, recorder: recorder, admission: .always)
            return
        case .moves:
            break
        }
        guard var moved = source, let toAlbum, let toName, let toType else { return }
        let old = try snapshot(moved.asset, tx: tx, recorder: recorder)
        touch(moved.album, moved.name)
        moved.album = toAlbum
        moved.name = toName
        moved.mediaType = toType
        switch access.lookUp(to) {
        case .found(let file) where file.kind == .regular:
            moved.file = file.facts
            moved.refusal = LinkRefusal.judge(file, daemonUID: daemonUID)
        case .found, .gone:
            break  // moved on or replaced already: its own event follows
        case .unreadable(let failure):
            unreadable[to] = failure
        }
        try tx.updateMember(moved)
        touch(toAlbum, toName)
        recorder.record(.asset(old: old, new: try snapshot(moved.asset, tx: tx, recorder: recorder)))
    }

    private func moveAlbum(from: RelativePath, to: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        access.invalidate()
        forgetUnreadable(within: from)
        guard LibraryScope.isAlbum(to) else {
            try removeAlbum(from, tx: tx, recorder: recorder)  // into a dot-directory: it left the library
            return
        }
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
        forgetUnreadable(within: path)
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
        markReadable(path)
        if let member = try member(at: path, tx: tx) {
            try delete(member, tx: tx, recorder: recorder)
        }
    }

    /// Deletes a member file's row. The asset stays while it has another
    /// member (a Live Photo's video gone leaves its photo, same ID).
    /// `located`: the asset as it was, when known already.
    private func delete(_ member: MemberRecord, tx: StoreTransaction, recorder: ChangeRecorder, located: LocatedAsset?? = nil) throws {
        let old = try located ?? snapshot(member.asset, tx: tx, recorder: recorder)
        try tx.deleteMember(rowID: member.rowID)
        touch(member.album, member.name)
        recorder.record(.asset(old: old, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
    }

    private func member(at path: RelativePath, tx: StoreTransaction) throws -> MemberRecord? {
        guard let name = path.lastComponent, let album = albums.album(at: path.parent ?? .root) else { return nil }
        return try tx.member(album: album, name: name)
    }

    // MARK: Live Photos

    /// Pairs again the stems and albums whose files changed in this batch, as `LivePairing` decides.
    private func pairTouched(tx: StoreTransaction, recorder: ChangeRecorder) throws {
        defer {
            touchedStems = [:]
            touchedAlbums = []
        }
        for album in touchedAlbums where albums.contains(album) {
            let (members, counts) = try tx.pairingMembers(inAlbum: album)
            try carryOut(LivePairing.plan(members, memberCounts: counts), tx: tx, recorder: recorder)
        }
        for (album, stems) in touchedStems where !touchedAlbums.contains(album) && albums.contains(album) {
            for stem in stems {
                let (members, counts) = try tx.pairingMembers(inAlbum: album, stem: stem)
                try carryOut(LivePairing.plan(members, memberCounts: counts), tx: tx, recorder: recorder)
            }
        }
    }

    private func carryOut(_ edits: [LivePairing.Edit], tx: StoreTransaction, recorder: ChangeRecorder) throws {
        for edit in edits {
            switch edit {
            case .join(let rowID, let target):
                guard let member = try tx.member(rowID: rowID) else { continue }
                let (oldSource, oldTarget) = (try snapshot(member.asset, tx: tx, recorder: recorder),
                                              try snapshot(target, tx: tx, recorder: recorder))
                try tx.moveMember(rowID, toAsset: target)
                recorder.record(.asset(old: oldSource, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
                recorder.record(.asset(old: oldTarget, new: try snapshot(target, tx: tx, recorder: recorder)))
            case .split(let rowID):
                guard let member = try tx.member(rowID: rowID) else { continue }
                let old = try snapshot(member.asset, tx: tx, recorder: recorder)
                let own = try tx.splitMember(member, generator: &generator)
                recorder.record(.asset(old: old, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
                recorder.record(.asset(old: nil, new: try snapshot(own, tx: tx, recorder: recorder)))
            }
        }
    }

    /// The album for a directory path, creating rows for directories that exist on disk but not yet in the index.
    /// `nil` when the path is not an album now: gone, not a directory, hidden, or not readable.
    func ensureAlbum(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws -> AlbumTree.ID? {
        guard LibraryScope.isAlbum(path) else { return nil }
        var current = AlbumTree.rootID
        var walked = RelativePath.root
        for component in path.components {
            walked = walked.appending(component)
            if let next = albums.child(of: current, named: component) {
                current = next
                continue
            }
            switch access.lookUp(walked) {
            case .found(let found) where found.kind == .directory:
                break
            case .unreadable(let failure):
                unreadable[walked] = failure
                return nil
            case .found, .gone:
                return nil
            }
            let id = try tx.insertAlbum(parent: current, name: component)
            albums.insert(id: id, parent: current, name: component)
            recorder.record(.albumCreated(walked))
            current = id
        }
        return current
    }

    // MARK: Scans

    /// Scans a directory that appeared (created, moved in, or readable again) and everything below it.
    private func scanNewDirectory(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        forgetUnreadable(within: path)
        guard let album = try ensureAlbum(path, tx: tx, recorder: recorder) else { return }
        let opened: FileDescriptor
        switch access.lookUpDirectory(path) {
        case .found(let fd):
            do {
                opened = try Directory.duplicate(fd)
            } catch {
                unreadable[path] = error.failure
                return
            }
        case .gone:
            return  // its removal event follows
        case .unreadable(let failure):
            unreadable[path] = failure
            return
        }
        var pending: [Pending] = [Pending(album: album, directory: .found(opened), path: path)]
        while let next = pending.popLast() {
            let result = try reconcileDirectory(next, tx: tx, recorder: recorder)
            for (member, located) in result.vanished { try delete(member, tx: tx, recorder: recorder, located: located) }
            pending += result.subdirectories
        }
    }

    /// A directory waiting to be scanned: its album, and its opened descriptor or why it could not be opened.
    struct Pending {
        var album: AlbumTree.ID
        var directory: Lookup<FileDescriptor>
        var path: RelativePath
    }

    struct DirectoryResult {
        var subdirectories: [Pending] = []
        /// Member files no longer present, with their asset as it was.
        var vanished: [(MemberRecord, LocatedAsset?)] = []
        var files = 0
    }

    /// Brings one directory's rows in line with its listing, as `DirectoryPlan` decides.
    ///
    /// New and changed files are written; sub-directories are returned (opened,
    /// or with why they could not be) for the caller to descend into; assets no
    /// longer present are returned as `vanished` for the caller to delete or
    /// match by inode. Closes the directory's descriptor.
    func reconcileDirectory(_ pending: Pending, tx: StoreTransaction, recorder: ChangeRecorder) throws -> DirectoryResult {
        let (album, path) = (pending.album, pending.path)
        let listing: Lookup<[DirectoryPlan.Entry]>
        var directory: FileDescriptor?
        switch pending.directory {
        case .found(let fd):
            directory = fd
            listing = list(fd)
        case .gone: listing = .gone
        case .unreadable(let failure): listing = .unreadable(failure)
        }
        defer { directory?.close() }
        let knownFiles = try tx.indexedFiles(inAlbum: album)
        let plan = DirectoryPlan.plan(listing: listing, knownFiles: knownFiles, knownAlbums: albums.children(of: album),
                                      policy: policy, daemonUID: daemonUID)
        for item in plan.unreadable {
            unreadable[item.name.map(path.appending) ?? path] = item.failure
        }
        var result = DirectoryResult(files: plan.fileCount)
        if !plan.newFiles.isEmpty || !plan.vanishedFiles.isEmpty { touchedAlbums.insert(album) }
        for file in plan.newFiles {
            var member = try tx.insertMember(album: album, name: file.name, mediaType: file.mediaType, file: file.facts,
                                             refusal: file.refusal, generator: &generator)
            try noteCaptureTime(&member, tx: tx)
            recorder.record(.asset(old: nil, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
        }
        for change in plan.changedFiles {
            guard var existing = try tx.member(rowID: change.rowID) else { continue }
            let old = try snapshot(existing.asset, tx: tx, recorder: recorder)
            let contentChanged = existing.file.inode != change.facts.inode || existing.file.size != change.facts.size
                || existing.file.modificationTime != change.facts.modificationTime
            existing.file = change.facts
            existing.refusal = change.refusal
            try tx.updateMember(existing)
            try noteCaptureTime(&existing, contentChanged: contentChanged, tx: tx)
            if change.isVisible { recorder.record(.asset(old: old, new: try snapshot(existing.asset, tx: tx, recorder: recorder))) }
        }
        for rowID in plan.vanishedFiles {
            if let member = try tx.member(rowID: rowID) {
                result.vanished.append((member, try snapshot(member.asset, tx: tx, recorder: recorder)))
            }
        }
        func open(_ name: FileName) -> Lookup<FileDescriptor> {
            guard let directory else { return .gone }
            do {
                return .found(try Directory.open(name, in: directory))
            } catch {
                return Lookup(failure: error.failure)
            }
        }
        for name in plan.newAlbums {
            let child = open(name)
            if case .gone = child { continue }  // gone (or a symlink now) since the listing
            let childPath = path.appending(name)
            let childID = try tx.insertAlbum(parent: album, name: name)
            albums.insert(id: childID, parent: album, name: name)
            recorder.record(.albumCreated(childPath))
            result.subdirectories.append(Pending(album: childID, directory: child, path: childPath))
        }
        for (name, childID) in plan.keptAlbums {
            result.subdirectories.append(Pending(album: childID, directory: open(name), path: path.appending(name)))
        }
        for gone in plan.goneAlbums {
            guard let gonePath = albums.path(of: gone) else { continue }
            // Keep the rows of vanished assets until the caller decides (a full
            // scan may find the same inode elsewhere): only the album goes now,
            // its assets are parked under hidden names, which no file can have.
            for record in try tx.assets(inAlbums: albums.subtree(of: gone)) {
                let located = recorder.isRecording ? locate(record) : nil
                for member in record.members where albums.isWithin(member.album, gone) {
                    result.vanished.append((member, located))
                    var parked = member
                    parked.album = AlbumTree.rootID
                    parked.name = FileName(".photolibd-vanished-\(member.rowID)")!
                    try tx.updateMember(parked)
                }
            }
            try tx.deleteAlbum(gone)
            albums.remove(gone)
            forgetUnreadable(within: gonePath)
            recorder.record(.albumRemoved(gonePath))
        }
        return result
    }

    /// Lists a directory and looks up the entries that could be assets or albums.
    private func list(_ directory: FileDescriptor) -> Lookup<[DirectoryPlan.Entry]> {
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.list(directory)
        } catch {
            return Lookup(failure: error.failure)
        }
        var out: [DirectoryPlan.Entry] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            switch entry.kind {
            case .directory:
                out.append(.init(name: entry.name, kind: .directory))
            case .regular, .unknown:
                // Only names that could be assets are looked up: the rest cost nothing.
                if entry.kind == .regular, policy.mediaType(of: entry.name) == nil { continue }
                let lookup: Lookup<FileObservation>
                do {
                    lookup = .found(try Directory.lookUp(entry.name, in: directory).observation)
                } catch {
                    lookup = Lookup(failure: error.failure)
                }
                if case .found(let found) = lookup, found.kind == .directory {
                    out.append(.init(name: entry.name, kind: .directory))
                } else {
                    out.append(.init(name: entry.name, kind: .file(lookup)))
                }
            case .symlink, .other:
                continue  // never an asset, never an album
            }
        }
        return .found(out)
    }

    /// Forgets that a path could not be read. Checked first: every file event
    /// comes here, and `unreadable` publishes to the status board on each write.
    private func markReadable(_ path: RelativePath) {
        if unreadable[path] != nil { unreadable[path] = nil }
    }

    private func forgetUnreadable(within path: RelativePath) {
        guard !unreadable.isEmpty else { return }
        unreadable = unreadable.filter { !$0.key.isWithin(path) }
    }

    private func publishUnreadable() {
        let paths = unreadable.keys.sorted()
        board.update { $0.unreadable = paths }
    }

    /// Walks the whole library and makes the index match it, in one transaction.
    ///
    /// Assets that disappeared from one place and an inode that appeared in
    /// another are the same asset moved while the daemon was not watching:
    /// it keeps its ID (and so its selections).
    func fullScan(recorder: ChangeRecorder, inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }) throws {
        access.invalidate()
        unreadable = [:]
        board.update {
            $0.phase = .scanning
            $0.scannedDirectories = 0
            $0.scannedFiles = 0
        }
        // One transaction for the whole walk: a crash midway leaves the old
        // index, and the next start scans again anyway.
        try store.write { tx in
            let watermark = try tx.maxMemberRowID()
            var vanished: [(MemberRecord, LocatedAsset?)] = []
            let root: Lookup<FileDescriptor>
            do throws(SystemCallError) {
                root = .found(try Directory.duplicate(access.root))
            } catch {
                root = .unreadable(error.failure)
            }
            var pending: [Pending] = [Pending(album: AlbumTree.rootID, directory: root, path: .root)]
            while let next = pending.popLast() {
                let result = try reconcileDirectory(next, tx: tx, recorder: recorder)
                vanished += result.vanished
                pending += result.subdirectories
                board.update {
                    $0.scannedDirectories += 1
                    $0.scannedFiles += result.files
                }
            }
            for (gone, goneLocation) in vanished {
                if let arrived = try tx.member(device: gone.file.device, inode: gone.file.inode, insertedAfter: watermark),
                   FileIdentity.isSameFile(indexed: gone.file, found: arrived.file) {
                    // The same file, moved while nobody watched: the old member
                    // (its asset's ID, selections) takes the new place. A reused
                    // inode number with another birth time is another file.
                    let arrivedLocation = try snapshot(arrived.asset, tx: tx, recorder: recorder)
                    try tx.deleteMember(rowID: arrived.rowID)
                    recorder.record(.asset(old: arrivedLocation, new: try snapshot(arrived.asset, tx: tx, recorder: recorder)))
                    var moved = gone
                    moved.album = arrived.album
                    moved.name = arrived.name
                    moved.mediaType = arrived.mediaType
                    moved.file = arrived.file
                    moved.refusal = arrived.refusal
                    try tx.updateMember(moved)
                    touchedAlbums.insert(arrived.album)
                    recorder.record(.asset(old: goneLocation, new: try snapshot(moved.asset, tx: tx, recorder: recorder)))
                } else {
                    try delete(gone, tx: tx, recorder: recorder, located: goneLocation)
                }
            }
            touchedAlbums.formUnion(try tx.takeAlbumsDueForPairing())
            try pairTouched(tx: tx, recorder: recorder)
            try inTransaction(tx, recorder)
        }
    }
}
