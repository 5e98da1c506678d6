import Glibc
import PhotoLibConfiguration
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// Taking files from the apps' inboxes into the library (SPEC §3, PhotoKit's creation request).
///
/// The order of an import is what makes it safe to kill at any instant:
/// 1. a row is recorded (`copying`), naming the temporary copy;
/// 2. the bytes are copied into a hidden file of the owner's in the import
///    album (`Imported/<app>/`), checked there (the app cannot touch it any
///    more), given the library's mode and synced;
/// 3. the name it is about to take is recorded, then it is renamed into place
///    with `RENAME_NOREPLACE` (never overwriting), and the album is synced;
/// 4. one transaction indexes it, joins a limited app's selection, and logs
///    the events;
/// 5. only then is the inbox file removed.
/// At start, `recoverImports` drops a copy that was never renamed (the inbox
/// file is still there, and is taken again) and finishes one that was; a
/// sweep removes inbox files whose import was recorded.
extension Engine {
    /// Creates, fixes and watches the inboxes of `apps`; removes those of apps that are gone.
    func syncInboxes() throws {
        let apps = try store.read { try $0.apps() }
        for (app, directory) in inboxes.sync(apps) { inboxes.watcher.watch(app, directory) }
        watchPictures(apps)
    }

    /// Handles what the inbox watcher found.
    func receive(_ arrival: InboxWatcher.Arrival) async {
        guard lifecycle.libraryAvailable else { return }  // the sweep after the library returns takes them
        if arrival.pictures {
            await readyForChange()
            reconcilePictures()
        } else if arrival.app == InboxWatcher.everyInbox {
            await sweepInboxes()
        } else if let name = arrival.name {
            await importEntry(name, of: arrival.app, onlyCreated: arrival.onlyCreated)
        }
    }

    /// Looks at every file in every inbox (at start, and after lost events).
    func sweepInboxes() async {
        // Imports run one at a time, each ended before the inbox service hands over anything else
        // (a sweep included), so a row still `copying` now was cut short by a stop.
        await takeLibraryTurn()
        await readyForChange()
        do {
            try recoverImports()
            endLibraryTurn()
        } catch {
            endLibraryTurn()
            logger.error("Cannot finish the imports a stop interrupted: \(error). They are tried again at the next sweep.")
        }
        let apps: [AppRecord]
        do {
            apps = try store.read { try $0.apps() }
        } catch {
            logger.error("Cannot read the apps to sweep their inboxes: \(error). Files there wait for the next sweep.")
            return
        }
        var everyEntryJudged = true
        for app in apps {
            guard let inbox = inboxes.directory(of: app.id) else { continue }
            let entries: [DirectoryEntry]
            do {
                entries = try Directory.list(inbox)
            } catch {
                logger.error("Cannot list the inbox of \(app.id): \(error); its files wait for the next sweep.")
                everyEntryJudged = false
                continue
            }
            for entry in entries.sorted(by: { $0.name < $1.name }) where await !importEntry(entry.name, of: app.id) {
                everyEntryJudged = false
            }
        }
        // Rows of the last day make the quota. Older ones are dropped only after
        // a sweep that judged every inbox file: a file whose import was recorded
        // before a stop, but not yet removed, was found and removed by it, so no
        // row that could still tell such a file from a new one goes.
        if everyEntryJudged {
            do {
                try store.write { try $0.pruneImports(before: clock.now() - 86_400) }
            } catch {
                logger.warning("Cannot drop import records older than a day: \(error); they are dropped at the next sweep.")
            }
        }
    }

    /// Judges one inbox entry and takes it in, or leaves it in `rejected/` with
    /// the reason; false when it could not be judged now (it stays for the next sweep).
    @discardableResult
    private func importEntry(_ name: FileName, of appID: AppID, onlyCreated: Bool = false) async -> Bool {
        guard !InboxPolicy.isPending(name, policy: configuration.namePolicy), let inbox = inboxes.directory(of: appID) else { return true }
        do {
            guard let app = try store.read({ try $0.app(appID) }), let found = try Directory.status(of: name, in: inbox) else { return true }
            // A new regular file is still being written: its close (or rename) says when it is complete.
            if onlyCreated, found.kind == FileStatus.Kind.regular, found.linkCount <= 1 { return true }
            if onlyCreated, found.kind == FileStatus.Kind.directory, name == InboxPolicy.rejectedDirectory { return true }
            let now = clock.now()
            if found.kind == FileStatus.Kind.regular, try store.read({
                try $0.wasImported(app.id, source: name, device: found.device, inode: found.inode, birth: found.birthTime)
            }) {
                try removeInboxFile(name, in: inbox, ifStill: found)  // taken in before a stop; only its removal was left
                return true
            }
            let right = InboxPolicy.right(readWrite: app.readWrite, addOnly: app.addOnly)
            let usage = try store.read { try $0.importUsage(app.id, since: now - 86_400) }
            switch InboxPolicy.admit(name, found: found.observation, right: right, usage: usage,
                                     limits: configuration.inboxLimits, policy: configuration.namePolicy) {
            case .failure(let refusal):
                try reject(name, of: app, in: inbox, refusal, bytes: found.size)
            case .success:
                try await copyIn(name, of: app, from: inbox, found: found, right: right ?? .addOnly, now: now)
            }
            return true
        } catch {
            logger.error("Importing \(name) from the inbox of \(appID) failed: \(error). The file stays in the inbox and is tried again at the next start.")
            return false
        }
    }

    private func copyIn(_ name: FileName, of app: AppRecord, from inbox: FileDescriptor, found: FileStatus,
                        right: InboxPolicy.Right, now: Int64) async throws {
        let openErrno: Int32
        let source: FileDescriptor
        switch Result(catching: { () throws(SystemCallError) in try FileCopy.openUntrusted(name, in: inbox) }) {
        case .success(let fd):
            source = fd
            openErrno = 0
        case .failure(let error):
            source = FileDescriptor(rawValue: -1)
            openErrno = error.errno
        }
        switch openErrno {
        case 0: break
        case ENOENT, ENOTDIR: return
        case ELOOP: return try reject(name, of: app, in: inbox, .symlink, bytes: 0)  // swapped for a symlink since the look
        case EACCES, EPERM: return try reject(name, of: app, in: inbox, .unreadable(errno: openErrno), bytes: found.size)
        default: throw SystemCallError("openat", errno: openErrno)
        }
        defer { source.close() }
        let opened = try Directory.status(of: source)
        // Replaced since the look: the new file has an event of its own.
        guard opened.kind == .regular, opened.inode == found.inode, opened.device == found.device else { return }
        if opened.linkCount > 1 { return try reject(name, of: app, in: inbox, .hardLinked(count: opened.linkCount), bytes: opened.size) }

        let (root, rootStatus) = try openLibraryRoot()
        defer { root.close() }
        let albumPath = configuration.importAlbum.appending(FileName(app.id.rawValue)!)
        let album = try Directory.openOrMake(albumPath, in: root, mode: 0o700 | (rootStatus.permissions & 0o055))
        defer { album.close() }
        let id = try store.write { tx in
            try tx.beginImport(app.id, source: name, device: opened.device, inode: opened.inode, birth: opened.birthTime, album: albumPath, at: now)
        }
        let temporary = ImportNaming.temporaryName(importID: id)
        let copy = try FileCopy.createTarget(temporary, in: album)
        defer { copy.close() }
        let placed: FileName
        let bytes: Int64
        let method: FileCopy.Method
        // Taken once the bytes are copied, and held until the copy is indexed: its name appears in the
        // library and in the index with no watch batch's look at the library in between (`LibraryTurn`).
        var holdsTurn = false
        defer { if holdsTurn { endLibraryTurn() } }
        do {
            // Off this actor: requests and library changes go on while the bytes are copied.
            // The library's usual mode: the owner's, readable by whom the library itself is, writable by nobody else.
            let outcome = try await ImportCopy.run(name, from: source, to: copy, expectedSize: opened.size,
                                                   limit: configuration.inboxLimits.maxFileBytes, mode: 0o600 | (rootStatus.permissions & 0o044))
            await takeLibraryTurn()
            holdsTurn = true
            await readyForChange()
            // Removed while its file was copied: its inbox (and that descriptor) went with it, and the copy goes too.
            guard let current = try store.read({ try $0.app(app.id) }), current.viewName == app.viewName,
                  let inbox = inboxes.directory(of: app.id) else {
                try Directory.unlink(temporary, in: album)
                try store.write { try $0.dropImport(id) }
                return
            }
            let copyInode: UInt64
            switch outcome {
            case .refused(let refusal, let copiedBytes):
                try Directory.unlink(temporary, in: album)
                try store.write { try $0.dropImport(id) }
                return try reject(name, of: app, in: inbox, refusal, bytes: copiedBytes)
            case .copied(let copiedBytes, let copiedBy, let inode):
                (bytes, method, copyInode) = (copiedBytes, copiedBy, inode)
            }
            placed = try place(temporary, as: name, in: album) { candidate in
                try store.write { try $0.setImportTarget(id, name: candidate, copyInode: copyInode, bytes: bytes) }
            }
        } catch {
            // Nothing was placed: drop the partial copy now. Best effort on purpose: the
            // error worth reporting is the one thrown below, and whatever this
            // leaves (a hidden file, a `copying` row) `recoverImports` removes at the next sweep.
            _ = try? Directory.unlink(temporary, in: album)
            _ = try? store.write { try $0.dropImport(id) }
            throw error
        }
        try FileCopy.sync(album)
        logger.info("Imported \(name) from the inbox of \(app.id) as \(albumPath.appending(placed)) (\(bytes) bytes, \(method.rawValue)).")
        try finishImport(id, of: app, name: placed, in: albumPath, source: name, sourceFound: opened, right: right)
    }

    /// Indexes a placed copy, joins a limited app's selection, logs the events,
    /// and then removes the inbox file (step 4 and 5 of an import).
    func finishImport(_ id: Int64, of app: AppRecord, name: FileName, in albumPath: RelativePath,
                      source: FileName, sourceFound: FileStatus?, right: InboxPolicy.Right) throws {
        var contexts = try appContexts()
        let recorder = ChangeRecorder(recording: true, limit: Self.rescanChangeLimit)
        var published: [PublishedEvent] = []
        // The asset joining the selection, when the index saw nothing new: the
        // copy was indexed before (a restart's scan found it, placed by an
        // import the kill interrupted), so only the selection changes, and the
        // app's view and history must follow it as for a selection edit.
        var joinedUnchanged: LocatedAsset?
        let arrival = WatchEvent.movedIn(albumPath.appending(name), isDirectory: false)
        // As for the watcher's batches: a copy without location is made before the transaction, which adopts it;
        // for the app itself too when the photo joins its selection (in the transaction, so not in `contexts` yet).
        lookAheadNow([arrival], for: contexts)
        if right == .joinsSelection, app.location == .none { views.lookAhead(albumPath.appending(name)) }
        var committed = false
        defer { views.derivatives.settleLookAhead(committed: committed) }
        _ = try index.apply([arrival], recorder: recorder) { tx, recorder, albums in
            let asset = try albums.album(at: albumPath).flatMap { try tx.asset(album: $0, name: name) }
            let plan = ImportPlan.decide(
                right: right, asset: asset, alreadySelected: try asset.map { try tx.isSelected(app.id, asset: $0.rowID) } ?? false,
                indexRecorded: asset.map { asset in recorder.changes.contains { $0.newAsset?.rowID == asset.rowID } } ?? false,
                tree: albums)
            let before = contexts.first { $0.app.id == app.id }
            if let row = plan.selects {
                _ = try tx.selectAssets(app.id, rowIDs: [row])
                for position in contexts.indices where contexts[position].app.id == app.id {
                    contexts[position].policy.selectedAssets.insert(row)
                }
            }
            if let located = plan.joinsUnchanged {
                joinedUnchanged = located
                decideWithoutLocation([located], for: contexts)
                if let before, let after = contexts.first(where: { $0.app.id == app.id }) {
                    var coalescer = ChangeCoalescer()
                    coalescer.add(id: located.id.rawValue, old: before.viewAsset(located), new: after.viewAsset(located))
                    if !coalescer.details.isEmpty { published.append(try journal.recordChange(app.id, coalescer.details, tx: tx)) }
                }
            }
            decideWithoutLocation(recorder.changes.compactMap(\.newAsset), for: contexts)
            published += try journal.recordLibraryChanges(
                recorder.changes, overflowed: recorder.overflowed, contexts: contexts, albums: albums, tx: tx)
            let seen = plan.tellsAsset ? contexts.first { $0.app.id == app.id }?.viewAsset(asset.flatMap { LocatedAsset($0, in: albums) }) : nil
            try tx.finishImport(id, state: plan.state, asset: asset?.id)
            published.append(try journal.recordImport(
                app.id, name: source, state: plan.state, asset: seen,
                assetID: plan.tellsAsset ? asset.map { app.assetIDs.id(for: $0.id) } : nil, tx: tx))
        }
        committed = true
        views.derivatives.settleLookAhead(committed: true)
        let changes = recorder.changes + (joinedUnchanged.map { [ViewChange.asset(old: nil, new: $0)] } ?? [])
        var settling = ChangeSet(events: published)
        if recorder.overflowed {
            settling.acts.reconcile = .apps(Set(contexts.map(\.app.id)))
        } else {
            settling.incremental = (changes, contexts)
        }
        // Committed: the inbox file goes now, before the app hears it was taken (step 5). Settled even when
        // that fails (the events are in the journal); the next sweep finds the import recorded and removes it.
        let removal = Result { () throws -> Void in
            if let inbox = inboxes.directory(of: app.id), let sourceFound { try removeInboxFile(source, in: inbox, ifStill: sourceFound) }
        }
        try settle(settling)
        try removal.get()
    }
}
