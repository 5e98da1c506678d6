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
    /// `scanned` hears each directory's count of files as it is done. A directory whose listing is
    /// what its rows were when `digests` were taken of them is left as it is, its rows not read.
    public mutating func fullScan(trusting digests: AlbumDigests? = nil, scanned: (Int) -> Void = { _ in }) throws {
        held.watermark = try rows.maxMemberRowID()
        var pending = [Pending(album: AlbumTree.rootID, path: .root)]
        while let next = pending.popLast() {
            // A stop rolls the whole scan back (one transaction): the index stays as it was, and the next start scans again.
            try checkpoint()
            if let files = digests?.unchanged(next.album, listing: probe.listings[next.path] ?? .gone, policy: policy, daemonUID: daemonUID) {
                unchangedListings += 1
                pending += albums.children(of: next.album).map { Pending(album: $0.value, path: next.path.appending($0.key)) }
                scanned(files)
                continue
            }
            let result = try reconcileDirectory(next)
            held.files += result.vanished
            pending += result.subdirectories
            scanned(result.files)
        }
        try settleVanished()
        touchedAlbums.formUnion(try rows.takeAlbumsDueForPairing())
        try pairTouched()
    }

    /// Lists one known directory again (a round saw its entries change), and indexes whole the albums
    /// new below it; its known sub-albums are left to their own rounds. What is gone from it is held
    /// until the batch's end (`settleVanished`): it may be new in another directory listed again.
    mutating func relistDirectory(_ path: RelativePath) throws {
        guard let listed = probe.listings[path] else { throw Unprobed(path: path) }
        guard let album = albums.album(at: path) else {
            try scanNewDirectory(path)  // new since the round looked at the index: indexed whole
            return
        }
        if case .gone = listed { return }  // its parent's listing (or its watch) says where it went
        if case .found(let entries) = listed {
            let known = Set(try rows.indexedFiles(inAlbum: album).keys).union(albums.children(of: album).keys)
            guard RoundJudgement.listingAgrees(entries, known: known, lacking: { probe.lookups[path.appending($0)] }) else {
                outcome.unsettled.append(path)  // a listing and stats from caches of different ages: the next round lists again
                return
            }
        }
        // Read now: what could not be read there before (it, or a file in it) is looked at anew; the
        // listing marks again what still cannot be. Its sub-albums are left to their own rounds.
        if !unreadable.isEmpty { unreadable = unreadable.filter { $0.key != path && $0.key.parent != path } }
        var pending = [Pending(album: album, path: path)]
        var descendsKept = false
        while let next = pending.popLast() {
            try checkpoint()
            let result = try reconcileDirectory(next, descendsKept: descendsKept)
            descendsKept = true  // below the directory listed again, every album is new: listed whole
            try hold(result.vanished)
            pending += result.subdirectories
        }
    }

    /// Parks files gone from a listing under hidden names (which no file can have), so that their
    /// names are free for what the batch finds there, until `settleVanished` decides.
    mutating func hold(_ vanished: [(MemberRecord, LocatedAsset?)]) throws {
        for (member, located) in vanished {
            touch(member.album, member.name)
            var parked = member
            if member.album != AlbumTree.rootID || !member.name.isHidden {
                parked.album = AlbumTree.rootID
                parked.name = FileName(".photolibd-vanished-\(member.rowID)")!
                try rows.updateMember(parked)
            }
            held.files.append((parked, located))
        }
    }

    /// Decides each file held as vanished: the same file found new elsewhere in this batch (moved or
    /// renamed while no watch saw it) keeps its asset, and so its ID and selections, at its new place;
    /// any other goes. Which file is the same is `FileIdentity`'s to say: by inode and birth time
    /// where inode numbers are the filesystem's own, by size and time, unambiguous, where they are made up.
    mutating func settleVanished() throws {
        let files = held.files
        held.files = []
        guard !files.isEmpty else { return }
        // Where inodes are made up, two vanished files that look alike match nothing.
        var alike: [FileIdentity.Content: Int] = [:]
        if !trustsInodes { for (gone, _) in files { alike[FileIdentity.Content(gone.file), default: 0] += 1 } }
        if trustsInodes { try noteArrivedInodes(wanted: Set(files.map { FileInode($0.0.file) })) }
        for (gone, goneLocation) in files {
            if let arrived = try arrival(sameAs: gone.file, alike: alike) {
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
    }

    /// The file this batch inserted that is the vanished `gone`, if one is.
    private mutating func arrival(sameAs gone: FileFacts, alike: [FileIdentity.Content: Int]) throws -> MemberRecord? {
        if trustsInodes {
            // The first arrival with its inode; a reused inode number with another birth time is another file.
            let key = FileInode(gone)
            guard let row = held.arrivedByInode[key]?.first, let arrived = try rows.member(rowID: row),
                  FileIdentity.isSameFile(indexed: gone, found: arrived.file) else { return nil }
            held.arrivedByInode[key]?.removeFirst()  // matched once: a second link of the inode takes the next
            return arrived
        }
        let content = FileIdentity.Content(gone)
        guard alike[content] == 1, let row = held.arrivedByContent[content], let row else { return nil }
        held.arrivedByContent[content] = nil  // matched once
        return try rows.member(rowID: row)
    }

    /// Notes the rows this batch inserted with the inodes of `wanted` (the vanished files'), in row
    /// order: read once, from the rows above the watermark, rather than kept for every insert (a first
    /// start's 100,000) or looked up through an index of every file's inode that each insert paid for.
    private mutating func noteArrivedInodes(wanted: Set<FileInode>) throws {
        var arrived: [FileInode: [Int64]] = [:]
        try rows.inodes(insertedAfter: held.watermark) { row, key in
            if wanted.contains(key) { arrived[key, default: []].append(row) }
        }
        held.arrivedByInode = arrived
    }

    /// Notes what the batch inserted, where inodes are made up: what a vanished file is matched with.
    mutating func noteArrived(_ assets: [AssetRecord]) {
        guard !trustsInodes else { return }
        for member in assets.lazy.flatMap(\.members) {
            let content = FileIdentity.Content(member.file)
            // Two new files that look alike are told from neither.
            held.arrivedByContent[content] = held.arrivedByContent[content] == nil ? .some(member.rowID) : .some(nil)
        }
    }

    /// Brings one directory's rows in line with its listing, as `DirectoryPlan` decides.
    ///
    /// New and changed files are written; sub-directories are returned for the caller to descend
    /// into; assets no longer present are returned as `vanished` for the caller to delete or match by
    /// inode. Inside a listed subtree, a directory without a listing is gone (or a symlink now)
    /// since its parent was listed. Without `makesAlbums` (a first scan in parts), new sub-albums
    /// are left for their own listings to make; `planned` is the plan already made for an album
    /// that knows nothing yet (`scanListed`).
    mutating func reconcileDirectory(_ pending: Pending, descendsKept: Bool = true, makesAlbums: Bool = true,
                                     planned: DirectoryPlan? = nil) throws -> DirectoryResult {
        let (album, path) = (pending.album, pending.path)
        let plan: DirectoryPlan
        if let planned {
            plan = planned
        } else {
            plan = DirectoryPlan.plan(listing: probe.listings[path] ?? .gone, knownFiles: try rows.indexedFiles(inAlbum: album),
                                      knownAlbums: albums.children(of: album), policy: policy, daemonUID: daemonUID)
        }
        for item in plan.unreadable {
            unreadable[item.name.map(path.appending) ?? path] = item.failure
        }
        var result = DirectoryResult(files: plan.fileCount)
        if plan.mayChangePairs { touchedAlbums.insert(album) }
        if !plan.newFiles.isEmpty || plan.changedFiles.contains(where: \.isVisible) || !plan.vanishedFiles.isEmpty
            || !plan.newAlbums.isEmpty || !plan.goneAlbums.isEmpty {
            changedAlbums.insert(album)
        }
        let inserted = try rows.insertNewAssets(album: album, files: plan.newFiles)
        noteArrived(inserted)
        for var asset in inserted {
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
        for name in plan.newAlbums where makesAlbums {
            let childPath = path.appending(name)
            guard probe.listings[childPath] != nil else { continue }  // gone (or a symlink now) since the listing
            let childID = try rows.insertAlbum(parent: album, name: name)
            albums.insert(id: childID, parent: album, name: name)
            recorder.record(.albumCreated(childPath))
            result.subdirectories.append(Pending(album: childID, path: childPath))
        }
        for (name, childID) in plan.keptAlbums where descendsKept {
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

/// Files gone from listings, held until the batch's end, and what they may be matched with.
struct HeldVanished {
    /// The largest member row before the batch inserted anything: rows above it arrived in it.
    var watermark: Int64 = 0
    var files: [(MemberRecord, LocatedAsset?)] = []
    /// Where inode numbers are made up: the rows this batch inserted, by content (nil: more than one looks so).
    var arrivedByContent: [FileIdentity.Content: Int64?] = [:]
    /// Where inode numbers are the filesystem's: the rows this batch inserted with a vanished file's
    /// inode, in row order (read when the vanished are settled).
    var arrivedByInode: [FileInode: [Int64]] = [:]
}

