import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// What each file or directory event does to the index.
extension LibraryIndex {
    func refreshFile(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder, admission: IndexStep.Admission) throws {
        guard LibraryScope.contains(path), let name = path.lastComponent, let mediaType = policy.mediaType(of: name) else { return }
        guard let album = try ensureAlbum(path.parent ?? .root, tx: tx, recorder: recorder) else { return }
        let existing = try tx.member(album: album, name: name)
        let known = existing.map { IndexedFile(rowID: $0.rowID, file: $0.file, refusal: $0.refusal) }
        switch FileRefresh.decide(known: known, found: lookUp(path), admission: admission, daemonUID: daemonUID) {
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
            touch(album, name)
            // Stored with the batch's other arrivals (`apply` stores them before anything reads the index).
            arrivals.add(DirectoryPlan.NewFile(name: name, mediaType: mediaType, facts: facts, refusal: refusal), at: path, album: album)
        }
    }

    /// Stores the new files held so far, many to a statement, and records each as an asset of its own.
    func storeArrivals(tx: StoreTransaction, recorder: ChangeRecorder) throws {
        guard !arrivals.isEmpty else { return }
        for held in arrivals.take() {
            for var asset in try tx.insertNewAssets(album: held.album, files: held.files, generator: &generator) {
                try noteCaptureTime(&asset.members[0], tx: tx)
                // As stored, so not read back; pairing (after the batch) records any join.
                recorder.record(.asset(old: nil, new: locate(asset)))
            }
        }
    }

    func moveFile(from: RelativePath, to: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
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
        switch lookUp(to) {
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

    func moveAlbum(from: RelativePath, to: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        access.retire()
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

    func removeAlbum(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        access.retire()
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

    func removeFile(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        markReadable(path)
        if let member = try member(at: path, tx: tx) {
            try delete(member, tx: tx, recorder: recorder)
        }
    }

    /// Deletes a member file's row. The asset stays while it has another
    /// member (a Live Photo's video gone leaves its photo, same ID).
    /// `located`: the asset as it was, when known already.
    func delete(_ member: MemberRecord, tx: StoreTransaction, recorder: ChangeRecorder, located: LocatedAsset?? = nil) throws {
        let old = try located ?? snapshot(member.asset, tx: tx, recorder: recorder)
        try tx.deleteMember(rowID: member.rowID)
        touch(member.album, member.name)
        recorder.record(.asset(old: old, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
    }

    func member(at path: RelativePath, tx: StoreTransaction) throws -> MemberRecord? {
        guard let name = path.lastComponent, let album = albums.album(at: path.parent ?? .root) else { return nil }
        return try tx.member(album: album, name: name)
    }
}
