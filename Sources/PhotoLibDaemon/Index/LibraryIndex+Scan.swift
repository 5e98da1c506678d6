import Foundation
import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// The whole library's scan, at start or after lost events: its walk, made before its transaction.
extension LibraryIndex {
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
    func fullScan(recorder: ChangeRecorder, inTransaction: InTransaction = { _, _, _ in }) throws {
        beginFullScan()
        let walked = try Self.walk(root: try Directory.duplicate(access.root), basis: probeBasis, daemonUID: daemonUID, store: store,
                                   looker: LibraryAccess.probing)
        try fullScan(walked: walked, recorder: recorder, inTransaction: inTransaction)
    }

    /// Makes the index match what `walked` found, in one transaction that reads those answers, as a
    /// batch's does its probe's, and makes no system call but SQLite's (`IndexBatch.fullScan`).
    /// A crash anywhere before its commit leaves the old index, and the next start scans again.
    /// Returns the albums whose listings changed (`IndexBatch.changedAlbums`).
    @discardableResult
    func fullScan(walked: LibraryProbe, recorder: ChangeRecorder, inTransaction: InTransaction = { _, _, _ in }) throws -> Set<AlbumTree.ID> {
        // A stop asked for during the walk ends the scan here: nothing is recorded, the next start scans again.
        try StopRequest.checkpoint()
        let looked = ContinuousClock.now
        defer { logger.debug("The scan's transaction over \(walked.listings.count) directories took \(ContinuousClock.now - looked).") }
        let board = board
        let digests = recordedDigests
        recordedDigests = nil  // the start's scan is the only one to use them
        let batch = try write(probe: walked, recorder: recorder, inTransaction: inTransaction) { batch in
            try batch.fullScan(trusting: digests) { files in
                board.update {
                    $0.scannedDirectories += 1
                    $0.scannedFiles += files
                }
            }
        }
        if batch.unchangedListings > 0 {
            logger.info("The scan read the rows of \(walked.listings.count - batch.unchangedListings) of \(walked.listings.count) library directories: the others' listings digest as their rows did at the last clean stop.")
        }
        return batch.changedAlbums
    }

    /// Lists the root and every album below it, before the scan's transaction, on every core (`TreeListing`).
    static func listWholeLibrary(root found: Lookup<FileDescriptor>, policy: AssetNamePolicy) -> [RelativePath: Lookup<[DirectoryPlan.Entry]>] {
        TreeListing.list(root: reopened(found), threads: ProcessInfo.processInfo.activeProcessorCount) { LibraryListing.list($0, policy: policy) }
    }

    /// The library's root as the looker found it, opened anew for a walk of its own: a duplicate
    /// would share its read position with the looker's own descriptor.
    static func reopened(_ found: Lookup<FileDescriptor>) -> Lookup<FileDescriptor> {
        switch found {
        case .found(let fd):
            do throws(SystemCallError) {
                return .found(try Directory.reopen(fd))
            } catch {
                return .unreadable(error.failure)
            }
        case .gone: return .gone
        case .unreadable(let failure): return .unreadable(failure)
        }
    }

    /// When each media file the scan will add or change was taken (nil: it could not be opened), read
    /// before its transaction: the same plans the transaction will make, made here against the index as it is.
    static func captureTimes(of listings: [RelativePath: Lookup<[DirectoryPlan.Entry]>], basis: LibraryProbe.Basis, daemonUID: UInt32,
                             clock: CaptureClock, tx: StoreTransaction) throws -> [RelativePath: Int64?] {
        let albums = basis.albums
        var taken: [RelativePath: Int64?] = [:]
        for (path, listing) in listings {
            let album = albums.album(at: path)
            if let album, basis.digests?.unchanged(album, listing: listing, policy: basis.policy, daemonUID: daemonUID) != nil { continue }
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

extension LibraryIndex {
    /// The names of the files the index holds in an album, read from the store. A read that fails is
    /// logged and gives nil: the listing that needed them is then not believed (nothing is taken for
    /// gone), and the directory is listed again at the next round.
    static func indexedNamesReader(_ store: Store, logger: Logger) -> @Sendable (AlbumTree.ID) -> Set<FileName>? {
        { album in
            do {
                return Set(try store.read { try $0.indexedFiles(inAlbum: album) }.keys)
            } catch {
                logger.warning("Cannot read the index's files of an album listed again by a round: \(error). Its listing changes nothing; the next round lists it again.")
                return nil
            }
        }
    }
}
