import Foundation
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// A first start's scan, its rows written in parts while its walk goes on.
extension LibraryIndex {
    /// Whether the index holds no file and no album but the root: a first start's, whose scan
    /// may be written in parts (`IndexBatch.scanListed`), nothing in it being able to have vanished.
    func holdsNothing() throws -> Bool {
        guard albums.count == 1 else { return false }
        return try store.read { try $0.maxMemberRowID() } == 0
    }

    /// The walk of a first scan (as `walk`'s, through descriptors of its own from `root`, which it
    /// closes), handing each listing to `feed` as it is made, with its plan (made here, off the
    /// engine: every album it names is new); on every core but one, which is left to the engine
    /// writing what they list (on two cores, listing on both starved the writes the start waits
    /// for). Returns how long it took.
    static func walk(into feed: ListingFeed, root: FileDescriptor, policy: AssetNamePolicy, daemonUID: UInt32,
                     looker: LibraryLookerMaker) -> Duration {
        let started = ContinuousClock.now
        defer { feed.finish() }
        let looking = looker(root)
        let found = looking.lookUpDirectory(.root)
        _ = TreeListing.list(root: reopened(found), threads: max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
                             list: { LibraryListing.list($0, policy: policy) },
                             delivered: { path, listing in
                                 let plan = DirectoryPlan.plan(listing: listing, knownFiles: [:], knownAlbums: [:], policy: policy, daemonUID: daemonUID)
                                 feed.deliver((path, listing, plan))
                             })
        return ContinuousClock.now - started
    }

    /// Writes the rows of one part of a first scan (the listings its walk made since the last
    /// part), in one transaction that makes no system call but SQLite's. A crash after it leaves
    /// the parts before it, which the next start's full scan completes, keeping their IDs.
    func scanListed(_ part: [ListingFeed.Listed], recorder: ChangeRecorder) throws -> IndexBatch<TransactionRows> {
        try StopRequest.checkpoint()
        let board = board
        var probe = LibraryProbe()
        var plans: [RelativePath: DirectoryPlan] = [:]
        for listed in part {
            probe.listings[listed.path] = listed.listing
            plans[listed.path] = listed.plan
        }
        return try write(probe: probe, recorder: recorder, inTransaction: { _, _, _ in }) { batch in
            try batch.scanListed(part.map(\.path), plans: plans) { files in
                board.update {
                    $0.scannedDirectories += 1
                    $0.scannedFiles += files
                }
            }
        }
    }
}
