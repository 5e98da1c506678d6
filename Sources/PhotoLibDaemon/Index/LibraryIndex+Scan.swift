import Foundation
import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// Scans: a directory that appeared, and the whole library at start or after lost events.
extension LibraryIndex {
    // MARK: Scans

    /// Scans a directory that appeared (created, moved in, or readable again) and everything below it.
    func scanNewDirectory(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws {
        forgetUnreadable(within: path)
        guard let album = try ensureAlbum(path, tx: tx, recorder: recorder) else { return }
        if let listed = probe?.listings[path] {
            // Listed, with everything below it, by the batch's probe.
            if case .gone = listed { return }  // its removal event follows
            var pending: [Pending] = [Pending(album: album, directory: nil, path: path)]
            while let next = pending.popLast() {
                // A stop rolls the whole scan back (one transaction): the index stays as it was, and the next start scans again.
                try StopRequest.checkpoint()
                let result = try reconcileDirectory(next, tx: tx, recorder: recorder)
                for (member, located) in result.vanished { try delete(member, tx: tx, recorder: recorder, located: located) }
                pending += result.subdirectories
            }
            return
        }
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

    /// A directory waiting to be scanned: its album, and its opened descriptor or why it could not be opened
    /// (nil: the batch's probe listed it).
    struct Pending {
        var album: AlbumTree.ID
        var directory: Lookup<FileDescriptor>?
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
        case .found(let fd)?:
            directory = fd
            listing = list(fd)
        case .gone?: listing = .gone
        case .unreadable(let failure)?: listing = .unreadable(failure)
        case nil: listing = probe?.listings[path] ?? .gone
        }
        defer { directory?.close() }
        let knownFiles = try tx.indexedFiles(inAlbum: album)
        let plan = DirectoryPlan.plan(listing: listing, knownFiles: knownFiles, knownAlbums: albums.children(of: album),
                                      policy: policy, daemonUID: daemonUID)
        for item in plan.unreadable {
            unreadable[item.name.map(path.appending) ?? path] = item.failure
        }
        var result = DirectoryResult(files: plan.fileCount)
        if plan.mayChangePairs { touchedAlbums.insert(album) }
        for var asset in try tx.insertNewAssets(album: album, files: plan.newFiles, generator: &generator) {
            try noteCaptureTime(&asset.members[0], tx: tx)
            recorder.record(.asset(old: nil, new: locate(asset)))  // as stored: not read back
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
        func open(_ name: FileName) -> Lookup<FileDescriptor>? {
            if pending.directory == nil {
                // Listed by the probe, or gone (or a symlink now) since its parent was.
                if case .gone? = probe?.listings[path.appending(name)] { return .gone }
                return probe?.listings[path.appending(name)] == nil ? .gone : nil
            }
            guard let directory else { return .gone }
            do {
                return .found(try Directory.open(name, in: directory))
            } catch {
                return Lookup(failure: error.failure)
            }
        }
        for name in plan.newAlbums {
            let child = open(name)
            if case .gone? = child { continue }  // gone (or a symlink now) since the listing
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
    func list(_ directory: FileDescriptor) -> Lookup<[DirectoryPlan.Entry]> {
        LibraryListing.list(directory, policy: policy)
    }

    /// Forgets that a path could not be read. Checked first: every file event
    /// comes here, and `unreadable` publishes to the status board on each write.
    func markReadable(_ path: RelativePath) {
        if unreadable[path] != nil { unreadable[path] = nil }
    }

    func forgetUnreadable(within path: RelativePath) {
        guard !unreadable.isEmpty else { return }
        unreadable = unreadable.filter { !$0.key.isWithin(path) }
    }

    func publishUnreadable() {
        let paths = unreadable.keys.sorted()
        board.update { $0.unreadable = paths }
    }

    /// Readies a full scan: what could not be read is looked at anew, and `status` says it scans.
    func beginFullScan() {
        access.invalidate()
        unreadable = [:]
        board.update {
            $0.phase = .scanning
            $0.scannedDirectories = 0
            $0.scannedFiles = 0
        }
    }

    /// The walk of a full scan, made before its transaction and off the engine (on a thread of its
    /// own, through descriptors of its own from `root`, a duplicate it closes): the root and every
    /// album below it listed on every core (`TreeListing`), then, while rule grants exist, when each
    /// file the scan will add or change was taken, against the index as it stands in `basis` and `store`.
    static func walk(root: FileDescriptor, basis: LibraryProbe.Basis, daemonUID: UInt32, store: Store,
                     looker: LibraryLookerMaker) throws -> LibraryProbe {
        let looking = looker(root)
        var walked = LibraryProbe()
        walked.listings = listWholeLibrary(root: looking.lookUpDirectory(.root), policy: basis.policy)
        if basis.readsCaptureTimes {
            let clock = CaptureClock(access: looking)
            walked.takenAt = try store.read { tx in
                try captureTimes(of: walked.listings, basis: basis, daemonUID: daemonUID, clock: clock, tx: tx)
            }
        }
        return walked
    }

    /// A whole scan made here and now, its walk on this thread: for the index's own tests.
    func fullScan(recorder: ChangeRecorder, inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }) throws {
        beginFullScan()
        let walked = try Self.walk(root: try Directory.duplicate(access.root), basis: probeBasis, daemonUID: daemonUID, store: store,
                                   looker: LibraryAccess.probing)
        try fullScan(walked: walked, recorder: recorder, inTransaction: inTransaction)
    }

    /// Makes the index match what `walked` found, in one transaction that reads those answers, as a
    /// batch's does its probe's, and makes no system call but SQLite's.
    ///
    /// Assets that disappeared from one place and an inode that appeared in
    /// another are the same asset moved while the daemon was not watching:
    /// it keeps its ID (and so its selections).
    /// A crash anywhere before its commit leaves the old index, and the next start scans again.
    func fullScan(walked: LibraryProbe, recorder: ChangeRecorder,
                  inTransaction: (StoreTransaction, ChangeRecorder) throws -> Void = { _, _ in }) throws {
        access.invalidate()  // descriptors opened meanwhile are closed before the write lock is taken
        // A stop asked for during the walk ends the scan here: nothing is recorded, the next start scans again.
        try StopRequest.checkpoint()
        let looked = ContinuousClock.now
        probe = walked
        defer {
            probe = nil
            logger.debug("The scan's transaction over \(walked.listings.count) directories took \(ContinuousClock.now - looked).")
        }
        try store.write { tx in
            let watermark = try tx.maxMemberRowID()
            var vanished: [(MemberRecord, LocatedAsset?)] = []
            // Every listing is the walk's (`directory: nil`): the root's, and each album's below it.
            var pending: [Pending] = [Pending(album: AlbumTree.rootID, directory: nil, path: .root)]
            while let next = pending.popLast() {
                // A stop rolls the whole scan back (one transaction): the index stays as it was, and the next start scans again.
                try StopRequest.checkpoint()
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

    /// Lists the root and every album below it, before the scan's transaction, on every core (`TreeListing`).
    static func listWholeLibrary(root found: Lookup<FileDescriptor>, policy: AssetNamePolicy) -> [RelativePath: Lookup<[DirectoryPlan.Entry]>] {
        let root: Lookup<FileDescriptor>
        switch found {
        case .found(let fd):
            do throws(SystemCallError) {
                // Opened anew, not duplicated: a duplicate shares its read position with the looker's own descriptor.
                root = .found(try Directory.reopen(fd))
            } catch {
                root = .unreadable(error.failure)
            }
        case .gone: root = .gone
        case .unreadable(let failure): root = .unreadable(failure)
        }
        return TreeListing.list(root: root, threads: ProcessInfo.processInfo.activeProcessorCount) { LibraryListing.list($0, policy: policy) }
    }

    /// When each media file the scan will add or change was taken (nil: it could not be opened), read
    /// before its transaction: the same plans the transaction will make, made here against the index as it is.
    static func captureTimes(of listings: [RelativePath: Lookup<[DirectoryPlan.Entry]>], basis: LibraryProbe.Basis, daemonUID: UInt32,
                             clock: CaptureClock, tx: StoreTransaction) throws -> [RelativePath: Int64?] {
        let albums = basis.albums
        var taken: [RelativePath: Int64?] = [:]
        for (path, listing) in listings {
            let album = albums.album(at: path)
            let known = try album.map { try tx.indexedFiles(inAlbum: $0) } ?? [:]
            let plan = DirectoryPlan.plan(listing: listing, knownFiles: known, knownAlbums: album.map { albums.children(of: $0) } ?? [:],
                                          policy: basis.policy, daemonUID: daemonUID)
            for (name, facts) in plan.newFiles.map({ ($0.name, $0.facts) }) + plan.changedFiles.map({ ($0.name, $0.facts) }) {
                taken[path.appending(name)] = clock.takenAt(album: path, name: name, file: facts)
            }
        }
        return taken
    }
}
