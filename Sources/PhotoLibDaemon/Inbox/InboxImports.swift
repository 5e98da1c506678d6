import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// The owner of imports from the apps' inboxes (SPEC §3): what becomes of each file an app leaves, and
/// the file operations that make taking it in safe to kill at any instant.
///
/// Its state is on disk (the inboxes and their `rejected/`, the hidden copies in the import album) and
/// in the store (a row per import, naming the copy and then the name it takes). The engine sequences an
/// import (`Engine+Inbox.swift`): it judges an entry here, copies the bytes off its actor, takes the
/// library's turn, places the copy here, indexes it in one transaction with the app's selection, and
/// settles; nothing here waits for the engine, indexes or publishes.
struct InboxImports {
    let store: Store
    let directories: InboxDirectories
    let journal: ChangeJournal
    let configuration: DaemonConfiguration
    let clock: any WallClock
    let logger: Logger

    /// What becomes of one inbox entry now.
    enum Judgement {
        /// Nothing now: gone, not an app's inbox, a name still pending, or a file still being written
        /// (its close or rename says when it is complete).
        case leave
        /// Taken in before a stop, its removal all that was left: removed if it is still that file.
        case alreadyImported(FileStatus)
        /// Refused, with the reason the app hears and the bytes it counts against the day's quota.
        case reject(AppRecord, InboxRefusal, bytes: Int64)
        /// Taken in: its bytes copied, under the app's right to add.
        case copy(AppRecord, FileStatus, InboxPolicy.Right)
    }

    /// Judges `name` in `appID`'s inbox by its look now, the app's right and what it added in the last day.
    func judge(_ name: FileName, of appID: AppID, onlyCreated: Bool) throws -> Judgement {
        guard !InboxPolicy.isPending(name, policy: configuration.namePolicy), let inbox = directories.directory(of: appID),
              let app = try store.read({ try $0.app(appID) }), let found = try Directory.status(of: name, in: inbox) else { return .leave }
        if onlyCreated, found.kind == .regular, found.linkCount <= 1 { return .leave }
        if onlyCreated, found.kind == .directory, name == InboxPolicy.rejectedDirectory { return .leave }
        if found.kind == .regular, try store.read({
            try $0.wasImported(app.id, source: name, device: found.device, inode: found.inode, birth: found.birthTime)
        }) {
            return .alreadyImported(found)
        }
        let right = InboxPolicy.right(readWrite: app.readWrite, addOnly: app.addOnly)
        let usage = try store.read { try $0.importUsage(app.id, since: clock.now() - 86_400) }
        switch InboxPolicy.admit(name, found: found.observation, right: right, usage: usage,
                                 limits: configuration.inboxLimits, policy: configuration.namePolicy) {
        case .failure(let refusal): return .reject(app, refusal, bytes: found.size)
        case .success: return .copy(app, found, right ?? .addOnly)
        }
    }

    /// An entry judged to be copied, opened as untrusted: still the file judged, or why not.
    enum Opening {
        /// Gone, or replaced since the look (the new file has an event of its own).
        case gone
        case refused(InboxRefusal, bytes: Int64)
        /// Open for reading, with its status as opened; the caller closes it.
        case opened(FileDescriptor, FileStatus)
    }

    /// Opens `name` for its copy, never following a symlink and never blocking on a FIFO.
    func open(_ name: FileName, of app: AppID, found: FileStatus) throws -> Opening {
        guard let inbox = directories.directory(of: app) else { return .gone }
        let source: FileDescriptor
        do throws(SystemCallError) {
            source = try FileCopy.openUntrusted(name, in: inbox)
        } catch {
            switch error.errno {
            case ENOENT, ENOTDIR: return .gone
            case ELOOP: return .refused(.symlink, bytes: 0)  // swapped for a symlink since the look
            case EACCES, EPERM: return .refused(.unreadable(errno: error.errno), bytes: found.size)
            default: throw error
            }
        }
        do {
            let opened = try Directory.status(of: source)
            guard opened.kind == .regular, opened.inode == found.inode, opened.device == found.device else {
                source.close()
                return .gone
            }
            if opened.linkCount > 1 {
                source.close()
                return .refused(.hardLinked(count: opened.linkCount), bytes: opened.size)
            }
            return .opened(source, opened)
        } catch {
            source.close()
            throw error
        }
    }

    /// An import under way: its row, and the hidden file in the import album its bytes are copied to.
    /// Its two descriptors are the caller's to close (`close()`), whatever becomes of the import.
    struct Pending {
        let id: Int64
        let albumPath: RelativePath
        let album: FileDescriptor
        let temporary: FileName
        let copy: FileDescriptor
        /// The library's usual mode for the copy: the owner's, readable by whom the library itself is.
        let mode: UInt32

        func close() {
            copy.close()
            album.close()
        }
    }

    /// Step 1 of an import: the row naming the copy is recorded, then the hidden copy is made in
    /// `Imported/<app>/` (made the owner's, as open as the library root to others, when missing).
    func begin(_ name: FileName, of app: AppID, source opened: FileStatus) throws -> Pending {
        let root = try Directory.open(path: configuration.library)
        defer { root.close() }
        let rootStatus = try Directory.status(of: root)
        let albumPath = configuration.importAlbum.appending(FileName(app.rawValue)!)
        let album = try Directory.openOrMake(albumPath, in: root, mode: 0o700 | (rootStatus.permissions & 0o055))
        do {
            let id = try store.write { tx in
                try tx.beginImport(app, source: name, device: opened.device, inode: opened.inode, birth: opened.birthTime,
                                   album: albumPath, at: clock.now())
            }
            let temporary = ImportNaming.temporaryName(importID: id)
            let copy = try FileCopy.createTarget(temporary, in: album)
            return Pending(id: id, albumPath: albumPath, album: album, temporary: temporary, copy: copy,
                           mode: 0o600 | (rootStatus.permissions & 0o044))
        } catch {
            album.close()
            throw error
        }
    }

    /// Undoes an import that placed nothing: its hidden copy and its row go.
    func abandon(_ pending: Pending) throws {
        try Directory.unlink(pending.temporary, in: pending.album)
        try store.write { try $0.dropImport(pending.id) }
    }

    /// Step 3: the copy takes `name`, or the first free `name (N)`, never overwriting; each name is
    /// recorded before it is tried, so a stop between the two is finished, not lost.
    func place(_ pending: Pending, as name: FileName, bytes: Int64, copyInode: UInt64) throws -> FileName {
        let id = pending.id
        guard let placed = try Directory.renameToFreeName(
            pending.temporary, in: pending.album, into: pending.album, candidates: { ImportNaming.candidate(for: name, attempt: $0) },
            announce: { candidate in try store.write { try $0.setImportTarget(id, name: candidate, copyInode: copyInode, bytes: bytes) } })
        else {
            throw SystemCallError("renameat2 \(pending.temporary)", errno: ENOENT)  // the copy is ours: gone means someone removed it
        }
        return placed
    }

    /// Makes a placed copy's name last (the album synced). Not part of `place`: a copy that took its name
    /// is never abandoned, even when this fails; its row, naming it, has the next sweep finish it.
    func persist(_ pending: Pending) throws {
        try FileCopy.sync(pending.album)
    }

    /// Moves a refused entry into `rejected/` (never overwriting) and records why, with the event the app
    /// hears; nil when the entry is gone meanwhile.
    func reject(_ name: FileName, of app: AppID, _ refusal: InboxRefusal, bytes: Int64) throws -> PublishedEvent? {
        guard let inbox = directories.directory(of: app) else { return nil }
        let rejected = try Directory.open(InboxPolicy.rejectedDirectory, in: inbox)
        defer { rejected.close() }
        guard let target = try Directory.renameToFreeName(name, in: inbox, into: rejected,
                                                          candidates: { ImportNaming.candidate(for: name, attempt: $0) }) else { return nil }
        let published = try store.write { tx in
            try tx.recordRejectedImport(app, source: name, bytes: bytes, code: refusal.code, at: clock.now())
            return try journal.recordImport(app, name: name, state: .rejected, refusal: refusal, rejectedAs: target, tx: tx)
        }
        logger.info("Refused \(name) in the inbox of \(app): \(refusal.reason)")
        return published
    }

    /// Step 5: removes an inbox file once its import is recorded, if it is still the file imported.
    func removeInboxFile(_ name: FileName, of app: AppID, ifStill found: FileStatus) throws {
        guard let inbox = directories.directory(of: app), let now = try Directory.status(of: name, in: inbox),
              now.inode == found.inode, now.device == found.device else { return }
        try Directory.unlink(name, in: inbox)
        try FileCopy.sync(inbox)
    }

    /// An import a stop cut short after its copy took its name: to be indexed, then its inbox file removed.
    struct Recovery {
        let record: ImportRecord
        let app: AppRecord
        let placed: FileName
        /// The inbox file, when it is still the one imported.
        let source: FileStatus?
        let right: InboxPolicy.Right
    }

    /// Undoes the imports a stop cut short before their copy took its name (the inbox file, still there,
    /// is taken again) and returns those cut short after, to be finished.
    func recover() throws -> [Recovery] {
        let unfinished = try store.read { try $0.unfinishedImports() }
        guard !unfinished.isEmpty else { return [] }
        let root = try Directory.open(path: configuration.library)
        defer { root.close() }
        var finishing: [Recovery] = []
        for record in unfinished {
            guard let album = try Directory.openIfPresent(record.album, in: root) else {
                try store.write { try $0.dropImport(record.id) }  // the album is gone, and the copy with it
                continue
            }
            defer { album.close() }
            let temporary = ImportNaming.temporaryName(importID: record.id)
            if try Directory.status(of: temporary, in: album) != nil {
                try Directory.unlink(temporary, in: album)  // never renamed into place
                try store.write { try $0.dropImport(record.id) }
                continue
            }
            guard let target = record.targetName, let placed = try Directory.status(of: target, in: album),
                  placed.inode == record.copyInode, let app = try store.read({ try $0.app(record.app) }) else {
                try store.write { try $0.dropImport(record.id) }
                continue
            }
            let source = try directories.directory(of: app.id).flatMap { try Directory.status(of: record.sourceName, in: $0) }
            finishing.append(Recovery(record: record, app: app, placed: target,
                                      source: source.flatMap { $0.inode == record.sourceInode && $0.device == record.sourceDevice ? $0 : nil },
                                      right: InboxPolicy.right(readWrite: app.readWrite, addOnly: app.addOnly) ?? .addOnly))
        }
        return finishing
    }

    /// The names in an app's inbox, in order; throws when it cannot be listed (its files wait, they are not "none").
    func entries(of app: AppID) throws -> [FileName] {
        guard let inbox = directories.directory(of: app) else { return [] }
        return try Directory.list(inbox).map(\.name).sorted()
    }

    /// Drops the rows older than a day, once a sweep judged every inbox file: a file whose import was
    /// recorded before a stop, but not yet removed, was found and removed by it, so no row that could
    /// still tell such a file from a new one goes.
    func prune() throws {
        try store.write { try $0.pruneImports(before: clock.now() - 86_400) }
    }
}
