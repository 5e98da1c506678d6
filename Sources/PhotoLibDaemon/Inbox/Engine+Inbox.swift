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
/// At start, `InboxImports.recover` drops a copy that was never renamed (the
/// inbox file is still there, and is taken again) and returns one that was, to
/// be finished; a sweep removes inbox files whose import was recorded. What to
/// do with an entry, and each file operation, is the owner's (`InboxImports`);
/// here is their order.
extension Engine {
    /// Creates, fixes and watches the inboxes of `apps`; removes those of apps that are gone.
    func syncInboxes() throws {
        let apps = try store.read { try $0.apps() }
        for (app, directory) in imports.directories.sync(apps) { imports.directories.watcher.watch(app, directory) }
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
            for recovery in try imports.recover() {
                logger.notice("Finishing the import of \(recovery.record.sourceName) from the inbox of \(recovery.app.id), interrupted by a stop.")
                try finishImport(recovery.record.id, of: recovery.app, name: recovery.placed, in: recovery.record.album,
                                 source: recovery.record.sourceName, sourceFound: recovery.source, right: recovery.right)
            }
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
            let names: [FileName]
            do {
                names = try imports.entries(of: app.id)
            } catch {
                logger.error("Cannot list the inbox of \(app.id): \(error); its files wait for the next sweep.")
                everyEntryJudged = false
                continue
            }
            for name in names where await !importEntry(name, of: app.id) {
                everyEntryJudged = false
            }
        }
        guard everyEntryJudged else { return }
        do {
            try imports.prune()
        } catch {
            logger.warning("Cannot drop import records older than a day: \(error); they are dropped at the next sweep.")
        }
    }

    /// Takes one inbox entry in, or leaves it in `rejected/` with the reason, as `imports` judges it;
    /// false when it could not be judged now (it stays for the next sweep).
    @discardableResult
    private func importEntry(_ name: FileName, of appID: AppID, onlyCreated: Bool = false) async -> Bool {
        do {
            switch try imports.judge(name, of: appID, onlyCreated: onlyCreated) {
            case .leave:
                break
            case .alreadyImported(let found):
                try imports.removeInboxFile(name, of: appID, ifStill: found)
            case .reject(let app, let refusal, let bytes):
                try reject(name, of: app.id, refusal, bytes: bytes)
            case .copy(let app, let found, let right):
                try await copyIn(name, of: app, found: found, right: right)
            }
            return true
        } catch {
            logger.error("Importing \(name) from the inbox of \(appID) failed: \(error). The file stays in the inbox and is tried again at the next start.")
            return false
        }
    }

    /// Refuses an entry (`InboxImports.reject`) and tells the app.
    private func reject(_ name: FileName, of app: AppID, _ refusal: InboxRefusal, bytes: Int64) throws {
        if let published = try imports.reject(name, of: app, refusal, bytes: bytes) { try settle(ChangeSet(events: [published])) }
    }

    /// Steps 1 to 3 of an import, then the rest (`finishImport`): the bytes are copied off this actor, so
    /// requests and library changes go on meanwhile; the copy takes its name and is indexed in the
    /// library's turn, with no watch batch's look at the library in between (`LibraryTurn`).
    private func copyIn(_ name: FileName, of app: AppRecord, found: FileStatus, right: InboxPolicy.Right) async throws {
        let source: FileDescriptor, opened: FileStatus
        switch try imports.open(name, of: app.id, found: found) {
        case .gone: return
        case .refused(let refusal, let bytes): return try reject(name, of: app.id, refusal, bytes: bytes)
        case .opened(let descriptor, let status): (source, opened) = (descriptor, status)
        }
        defer { source.close() }
        let pending = try imports.begin(name, of: app.id, source: opened)
        defer { pending.close() }
        let placed: FileName, bytes: Int64, method: FileCopy.Method
        var holdsTurn = false
        defer { if holdsTurn { endLibraryTurn() } }
        do {
            let outcome = try await ImportCopy.run(name, from: source, to: pending.copy, expectedSize: opened.size,
                                                   limit: configuration.inboxLimits.maxFileBytes, mode: pending.mode)
            await takeLibraryTurn()
            holdsTurn = true
            await readyForChange()
            // Removed while its file was copied: its inbox (and that descriptor) went with it, and the copy goes too.
            guard let current = try store.read({ try $0.app(app.id) }), current.viewName == app.viewName,
                  imports.directories.directory(of: app.id) != nil else {
                return try imports.abandon(pending)
            }
            let copyInode: UInt64
            switch outcome {
            case .refused(let refusal, let copiedBytes):
                try imports.abandon(pending)
                return try reject(name, of: app.id, refusal, bytes: copiedBytes)
            case .copied(let copiedBytes, let copiedBy, let inode):
                (bytes, method, copyInode) = (copiedBytes, copiedBy, inode)
            }
            placed = try imports.place(pending, as: name, bytes: bytes, copyInode: copyInode)
        } catch {
            // Nothing was placed: drop the partial copy now. Best effort on purpose: the error worth
            // reporting is the one thrown below, and whatever this leaves (a hidden file, a `copying`
            // row) `InboxImports.recover` removes at the next sweep.
            _ = try? imports.abandon(pending)
            throw error
        }
        try imports.persist(pending)
        logger.info("Imported \(name) from the inbox of \(app.id) as \(pending.albumPath.appending(placed)) (\(bytes) bytes, \(method.rawValue)).")
        try finishImport(pending.id, of: app, name: placed, in: pending.albumPath, source: name, sourceFound: opened, right: right)
    }

    /// Indexes a placed copy, with what the import itself changes (`InboxImports.commit`) in the
    /// same transaction, settles, and then removes the inbox file (step 4 and 5 of an import).
    func finishImport(_ id: Int64, of app: AppRecord, name: FileName, in albumPath: RelativePath,
                      source: FileName, sourceFound: FileStatus?, right: InboxPolicy.Right) throws {
        var contexts = try appContexts()
        let recorder = ChangeRecorder(recording: true, limit: Self.rescanChangeLimit)
        var done = InboxImports.Commit()
        let arrival = WatchEvent.movedIn(albumPath.appending(name), isDirectory: false)
        // As for the watcher's batches: a copy without location is made before the transaction, which adopts it;
        // for the app itself too when the photo joins its selection (in the transaction, so not in `contexts` yet).
        lookAheadNow([arrival], for: contexts)
        if right == .joinsSelection, app.location == .none { views.lookAhead(albumPath.appending(name)) }
        var committed = false
        defer { views.derivatives.settleLookAhead(committed: committed) }
        _ = try index.apply([arrival], recorder: recorder) { tx, recorder, albums in
            done = try imports.commit(id, of: app, name: name, in: albumPath, source: source, right: right, recorder: recorder,
                                      albums: albums, contexts: &contexts, decideWithoutLocation: { views.decideWithoutLocation($0, for: $1) },
                                      tx: tx)
        }
        committed = true
        views.derivatives.settleLookAhead(committed: true)
        let changes = recorder.changes + (done.joinedUnchanged.map { [ViewChange.asset(old: nil, new: $0)] } ?? [])
        var settling = ChangeSet(events: done.published)
        if recorder.overflowed {
            settling.acts.reconcile = .apps(Set(contexts.map(\.app.id)))
        } else {
            settling.incremental = (changes, contexts)
        }
        // Committed: the inbox file goes now, before the app hears it was taken (step 5). Settled even when
        // that fails (the events are in the journal); the next sweep finds the import recorded and removes it.
        let removal = Result { () throws -> Void in
            if let sourceFound { try imports.removeInboxFile(source, of: app.id, ifStill: sourceFound) }
        }
        try settle(settling)
        try removal.get()
    }
}
