// Scans: a directory that appeared (or is readable again), and the whole library at start or after lost events.
extension IndexBatch {
    /// A directory waiting to be brought in line with its listing.
    struct Pending {
        var album: AlbumTree.ID
        var path: RelativePath
    }

    struct DirectoryResult {
        var subdirectories: [Pending] = []
        /// Member files no longer present, with their asset as it was.
        var vanished: [(MemberRecord, LocatedAsset?)] = []
        var files = 0
    }

    /// Scans a directory that appeared (created, moved in, or readable again) and everything below it,
    /// as the batch's probe listed them.
    mutating func scanNewDirectory(_ path: RelativePath) throws {
        // Checked before anything changes: a directory the probe did not list stops the event whole.
        guard let listed = probe.listings[path] else { throw Unprobed(path: path) }
        forgetUnreadable(within: path)
        guard let album = try ensureAlbum(path) else { return }
        if case .gone = listed { return }  // its removal event follows
        var pending = [Pending(album: album, path: path)]
        while let next = pending.popLast() {
            // A stop rolls the whole batch back (one transaction): the index stays as it was.
            try checkpoint()
            let result = try reconcileDirectory(next)
            for (member, located) in result.vanished { try delete(member, located: located) }
            pending += result.subdirectories
        }
    }

    /// Makes the rows match what the probe (a full scan's walk) listed, the root and every album below it.
    ///
    /// Assets that disappeared from one place and an inode that appeared in another are the same
    /// asset moved while the daemon was not watching: it keeps its ID (and so its selections).
    /// `scanned` hears each directory's count of files as it is done.
    public mutating func fullScan(scanned: (Int) -> Void = { _ in }) throws {
        let watermark = try rows.maxMemberRowID()
        var vanished: [(MemberRecord, LocatedAsset?)] = []
        var pending = [Pending(album: AlbumTree.rootID, path: .root)]
        while let next = pending.popLast() {
            // A stop rolls the whole scan back (one transaction): the index stays as it was, and the next start scans again.
            try checkpoint()
            let result = try reconcileDirectory(next)
            vanished += result.vanished
            pending += result.subdirectories
            scanned(result.files)
        }
        for (gone, goneLocation) in vanished {
            if let arrived = try rows.member(device: gone.file.device, inode: gone.file.inode, insertedAfter: watermark),
               FileIdentity.isSameFile(indexed: gone.file, found: arrived.file) {
                // The same file, moved while nobody watched: the old member (its asset's ID,
                // selections) takes the new place. A reused inode number with another birth time is another file.
                let arrivedLocation = try snapshot(arrived.asset)
                try rows.deleteMember(rowID: arrived.rowID)
                recorder.record(.asset(old: arrivedLocation, new: try snapshot(arrived.asset)))
                var moved = gone
                moved.album = arrived.album
                moved.name = arrived.name
                moved.mediaType = arrived.mediaType
                moved.file = arrived.file
                moved.refusal = arrived.refusal
                try rows.updateMember(moved)
                touchedAlbums.insert(arrived.album)
                recorder.record(.asset(old: goneLocation, new: try snapshot(moved.asset)))
            } else {
                try delete(gone, located: goneLocation)
            }
        }
        touchedAlbums.formUnion(try rows.takeAlbumsDueForPairing())
        try pairTouched()
    }

    /// Brings one directory's rows in line with its listing, as `DirectoryPlan` decides.
    ///
    /// New and changed files are written; sub-directories are returned for the caller to descend
    /// into; assets no longer present are returned as `vanished` for the caller to delete or match by
    /// inode. Inside a listed subtree, a directory without a listing is gone (or a symlink now)
    /// since its parent was listed.
    mutating func reconcileDirectory(_ pending: Pending) throws -> DirectoryResult {
        let (album, path) = (pending.album, pending.path)
        let listing = probe.listings[path] ?? .gone
        let knownFiles = try rows.indexedFiles(inAlbum: album)
        let plan = DirectoryPlan.plan(listing: listing, knownFiles: knownFiles, knownAlbums: albums.children(of: album),
                                      policy: policy, daemonUID: daemonUID)
        for item in plan.unreadable {
            unreadable[item.name.map(path.appending) ?? path] = item.failure
        }
        var result = DirectoryResult(files: plan.fileCount)
        if plan.mayChangePairs { touchedAlbums.insert(album) }
        for var asset in try rows.insertNewAssets(album: album, files: plan.newFiles) {
            try noteCaptureTime(&asset.members[0])
            recorder.record(.asset(old: nil, new: locate(asset)))  // as stored: not read back
        }
        for change in plan.changedFiles {
            guard var existing = try rows.member(rowID: change.rowID) else { continue }
            let old = try snapshot(existing.asset)
            let contentChanged = existing.file.inode != change.facts.inode || existing.file.size != change.facts.size
                || existing.file.modificationTime != change.facts.modificationTime
            existing.file = change.facts
            existing.refusal = change.refusal
            try rows.updateMember(existing)
            try noteCaptureTime(&existing, contentChanged: contentChanged)
            if change.isVisible { recorder.record(.asset(old: old, new: try snapshot(existing.asset))) }
        }
        for rowID in plan.vanishedFiles {
            if let member = try rows.member(rowID: rowID) {
                result.vanished.append((member, try snapshot(member.asset)))
            }
        }
        for name in plan.newAlbums {
            let childPath = path.appending(name)
            guard probe.listings[childPath] != nil else { continue }  // gone (or a symlink now) since the listing
            let childID = try rows.insertAlbum(parent: album, name: name)
            albums.insert(id: childID, parent: album, name: name)
            recorder.record(.albumCreated(childPath))
            result.subdirectories.append(Pending(album: childID, path: childPath))
        }
        for (name, childID) in plan.keptAlbums {
            result.subdirectories.append(Pending(album: childID, path: path.appending(name)))
        }
        for gone in plan.goneAlbums {
            guard let gonePath = albums.path(of: gone) else { continue }
            // The rows of vanished assets stay until the caller decides (a full scan may find the
            // same inode elsewhere): only the album goes now, its assets parked under hidden names,
            // which no file can have.
            for record in try rows.assets(inAlbums: albums.subtree(of: gone)) {
                let located = recorder.isRecording ? locate(record) : nil
                for member in record.members where albums.isWithin(member.album, gone) {
                    result.vanished.append((member, located))
                    var parked = member
                    parked.album = AlbumTree.rootID
                    parked.name = FileName(".photolibd-vanished-\(member.rowID)")!
                    try rows.updateMember(parked)
                }
            }
            try rows.deleteAlbum(gone)
            albums.remove(gone)
            forgetUnreadable(within: gonePath)
            recorder.record(.albumRemoved(gonePath))
        }
        return result
    }
}
