import Glibc
import PhotoLibConfiguration
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// The file operations of an import: refusing, placing, moving aside, and finishing imports a crash interrupted.
extension Engine {
    /// Moves a refused entry into `rejected/` (never overwriting) and tells the app why.
    func reject(_ name: FileName, of app: AppRecord, in inbox: FileDescriptor, _ refusal: InboxRefusal, bytes: Int64) throws {
        let rejected = try Directory.open(InboxPolicy.rejectedDirectory, in: inbox)
        defer { rejected.close() }
        guard let target = try moveAside(name, from: inbox, into: rejected) else { return }  // gone meanwhile
        let published = try store.write { tx in
            try tx.recordRejectedImport(app.id, source: name, bytes: bytes, code: refusal.code, at: clock.now())
            return try journal.recordImport(app.id, name: name, state: .rejected, refusal: refusal, rejectedAs: target, tx: tx)
        }
        logger.info("Refused \(name) in the inbox of \(app.id): \(refusal.reason)")
        try settle(ChangeSet(events: [published]))
    }

    /// Renames the copy to `name`, or the first free `name (N)`, never
    /// overwriting; `announce` records each name before it is tried.
    func place(_ temporary: FileName, as name: FileName, in album: FileDescriptor, announce: (FileName) throws -> Void) throws -> FileName {
        guard let placed = try Directory.renameToFreeName(temporary, in: album, into: album, candidates: { ImportNaming.candidate(for: name, attempt: $0) },
                                                          announce: announce) else {
            throw SystemCallError("renameat2 \(temporary)", errno: ENOENT)  // the copy is ours: gone means someone removed it
        }
        return placed
    }

    /// Renames `name` into `target` under its own name or the first free
    /// `name (N)`; nil when it is gone.
    func moveAside(_ name: FileName, from inbox: FileDescriptor, into target: FileDescriptor) throws -> FileName? {
        try Directory.renameToFreeName(name, in: inbox, into: target, candidates: { ImportNaming.candidate(for: name, attempt: $0) })
    }

    /// Removes an inbox file once its import is recorded, if it is still the file imported.
    func removeInboxFile(_ name: FileName, in inbox: FileDescriptor, ifStill found: FileStatus) throws {
        guard let now = try Directory.status(of: name, in: inbox), now.inode == found.inode, now.device == found.device else { return }
        try Directory.unlink(name, in: inbox)
        try FileCopy.sync(inbox)
    }

    /// Finishes or undoes the imports a stop interrupted (before the first sweep).
    func recoverImports() throws {
        let unfinished = try store.read { try $0.unfinishedImports() }
        guard !unfinished.isEmpty else { return }
        let (root, _) = try openLibraryRoot()
        defer { root.close() }
        for record in unfinished {
            guard let album = try Directory.openIfPresent(record.album, in: root) else {
                // The album is gone, and the copy with it: the inbox file, still there, is taken again.
                try store.write { try $0.dropImport(record.id) }
                continue
            }
            defer { album.close() }
            let temporary = ImportNaming.temporaryName(importID: record.id)
            if try Directory.status(of: temporary, in: album) != nil {
                // Never renamed into place: the inbox file is still there and is taken again.
                try Directory.unlink(temporary, in: album)
                try store.write { try $0.dropImport(record.id) }
                continue
            }
            guard let target = record.targetName, let placed = try Directory.status(of: target, in: album),
                  placed.inode == record.copyInode, let app = try store.read({ try $0.app(record.app) }) else {
                try store.write { try $0.dropImport(record.id) }
                continue
            }
            let source = try inboxes.directory(of: app.id).flatMap { try Directory.status(of: record.sourceName, in: $0) }
            let sameSource = source.flatMap { $0.inode == record.sourceInode && $0.device == record.sourceDevice ? $0 : nil }
            logger.notice("Finishing the import of \(record.sourceName) from the inbox of \(app.id), interrupted by a stop.")
            try finishImport(record.id, of: app, name: target, in: record.album, source: record.sourceName, sourceFound: sameSource,
                             right: InboxPolicy.right(readWrite: app.readWrite, addOnly: app.addOnly) ?? .addOnly)
        }
    }

    func openLibraryRoot() throws -> (FileDescriptor, FileStatus) {
        let root = try Directory.open(path: configuration.library)
        do {
            return (root, try Directory.status(of: root))
        } catch {
            root.close()
            throw error
        }
    }
}
