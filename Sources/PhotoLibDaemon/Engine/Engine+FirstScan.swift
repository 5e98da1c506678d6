import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// A first start's scan: the rows written in parts while the walk goes on, rather than after it.
extension Engine {
    /// What a scan written in parts found.
    struct PartedScan {
        var changedAlbums: Set<AlbumTree.ID> = []
        /// A part could not place a listing (`IndexBatch.scanListed`): a full scan must follow.
        var needsFullScan = false
        var parts = 0
    }

    /// Whether this scan may be written in parts (`scanInParts`): the index holds nothing yet (a
    /// first start), and there is no app to tell of what the scan finds, nor rule grant wanting
    /// when each file was taken read before a transaction.
    func scansInParts(contexts: [AppViewContext]) throws -> Bool {
        guard contexts.isEmpty, !index.probeBasis.readsCaptureTimes else { return false }
        return try index.holdsNothing()
    }

    /// The first scan of an empty index: the walk lists on its own threads (`libraryLane`, then
    /// `TreeListing`'s), and each time the engine is free it writes, in one transaction, every
    /// listing made since its last (`LibraryIndex.scanListed`), so SQLite's work overlaps the
    /// walk's instead of following it. No part waits on the library under SQLite's write lock.
    func scanInParts() async throws -> PartedScan {
        let feed = ListingFeed()
        let (policy, daemonUID, looker) = (index.policy, ownerUID, libraryLooker)
        let root = try Directory.duplicate(index.access.root)
        async let walked = libraryLane.run { LibraryIndex.walk(into: feed, root: root, policy: policy, daemonUID: daemonUID, looker: looker) }
        var scan = PartedScan()
        do {
            while let part = await feed.next() {
                let batch = try index.scanListed(part, recorder: ChangeRecorder(recording: false))
                scan.changedAlbums.formUnion(batch.changedAlbums)
                scan.needsFullScan = scan.needsFullScan || batch.outcome.needsFullScan
                scan.parts += 1
            }
        } catch {
            _ = await walked  // its threads end with the walk, which writes nothing
            throw error
        }
        let took = await walked
        logger.debug("The first scan's walk took \(took); its rows were written in \(scan.parts) parts as its listings came.")
        return scan
    }

    /// The parts told no app of what they wrote (there was none when they began): an app added
    /// while they were written is told to reload, as after any change too large to list.
    func reloadAppsAddedDuringParts() throws -> [PublishedEvent] {
        let contexts = try appContexts()
        guard !contexts.isEmpty else { return [] }
        let (journal, albums) = (journal, index.albums)
        return try store.write { tx in
            try journal.recordLibraryChanges([], overflowed: true, contexts: contexts, albums: albums, tx: tx)
        }
    }
}
