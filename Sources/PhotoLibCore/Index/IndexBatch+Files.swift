// What each file event does to the index's rows.
extension IndexBatch {
    mutating func refreshFile(_ path: RelativePath, admission: IndexStep.Admission) throws {
        guard LibraryScope.contains(path), let name = path.lastComponent, let mediaType = policy.mediaType(of: name) else { return }
        guard let album = try ensureAlbum(path.parent ?? .root) else { return }
        let found = try lookUp(path)
        let existing = try rows.member(album: album, name: name)
        let known = existing.map { IndexedFile(rowID: $0.rowID, file: $0.file, refusal: $0.refusal) }
        switch FileRefresh.decide(known: known, found: found, admission: admission, daemonUID: daemonUID) {
        case .nothing:
            return
        case .keep(let failure):
            unreadable[path] = failure
        case .delete:
            markReadable(path)
            if let existing { try delete(existing) }
        case .update(let facts, let refusal, let isVisible):
            markReadable(path)
            guard var existing else { return }
            let old = try snapshot(existing.asset)
            let contentChanged = existing.file.inode != facts.inode || existing.file.size != facts.size
                || existing.file.modificationTime != facts.modificationTime
            existing.file = facts
            existing.refusal = refusal
            try rows.updateMember(existing)
            try noteCaptureTime(&existing, contentChanged: contentChanged)
            if isVisible { recorder.record(.asset(old: old, new: try snapshot(existing.asset))) }
        case .insert(let facts, let refusal):
            markReadable(path)
            touch(album, name)
            // Stored with the batch's other arrivals (`apply` stores them before anything reads the index).
            arrivals.add(DirectoryPlan.NewFile(name: name, mediaType: mediaType, facts: facts, refusal: refusal), at: path, album: album)
        }
    }

    /// Stores the new files held so far, many to a statement, and records each as an asset of its own.
    mutating func storeArrivals() throws {
        guard !arrivals.isEmpty else { return }
        for waiting in arrivals.take() {
            let inserted = try rows.insertNewAssets(album: waiting.album, files: waiting.files)
            noteArrived(inserted)
            for var asset in inserted {
                try noteCaptureTime(&asset.members[0])
                // As stored, so not read back; pairing (after the batch) records any join.
                recorder.record(.asset(old: nil, new: locate(asset)))
            }
        }
    }

    mutating func moveFile(from: RelativePath, to: RelativePath) throws {
        let toName = to.lastComponent, toType = toName.flatMap(policy.mediaType(of:))
        let toAlbum = LibraryScope.contains(to) && toType != nil ? try ensureAlbum(to.parent ?? .root) : nil
        // Looked up before anything is written: a path the probe missed stops the event whole.
        let found = toAlbum == nil ? nil : try lookUp(to)
        let source = try member(at: from)
        markReadable(from)
        let destination = try toAlbum.flatMap { album in try toName.flatMap { try rows.member(album: album, name: $0) } }
        switch RenameOutcome.decide(destinationIsAsset: toAlbum != nil, source: source?.rowID, destination: destination?.rowID) {
        case .leftLibrary:
            if let source { try delete(source) }
            return
        case .replacedMember(let removeSource):
            if removeSource, let source { try delete(source) }
            try refreshFile(to, admission: .never)
            return
        case .arrives:
            try refreshFile(to, admission: .always)
            return
        case .moves:
            break
        }
        guard var moved = source, let toAlbum, let toName, let toType else { return }
        let old = try snapshot(moved.asset)
        touch(moved.album, moved.name)
        moved.album = toAlbum
        moved.name = toName
        moved.mediaType = toType
        switch found {
        case .found(let file)? where file.kind == .regular:
            moved.file = file.facts
            moved.refusal = LinkRefusal.judge(file, daemonUID: daemonUID)
        case .found?, .gone?, nil:
            break  // moved on or replaced already: its own event follows
        case .unreadable(let failure)?:
            unreadable[to] = failure
        }
        try rows.updateMember(moved)
        touch(toAlbum, toName)
        recorder.record(.asset(old: old, new: try snapshot(moved.asset)))
    }

    mutating func removeFile(_ path: RelativePath) throws {
        markReadable(path)
        if let member = try member(at: path) {
            try delete(member)
        }
    }

    /// Deletes a member file's row. The asset stays while it has another member (a Live Photo's
    /// video gone leaves its photo, same ID). `located`: the asset as it was, when known already.
    mutating func delete(_ member: MemberRecord, located: LocatedAsset?? = nil) throws {
        let old = try located ?? snapshot(member.asset)
        try rows.deleteMember(rowID: member.rowID)
        touch(member.album, member.name)
        recorder.record(.asset(old: old, new: try snapshot(member.asset)))
    }

    func member(at path: RelativePath) throws -> MemberRecord? {
        guard let name = path.lastComponent, let album = albums.album(at: path.parent ?? .root) else { return nil }
        return try rows.member(album: album, name: name)
    }
}
