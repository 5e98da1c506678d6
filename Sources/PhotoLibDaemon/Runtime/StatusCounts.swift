import Synchronization

/// The library's counts a status reports, kept while the store has not changed.
///
/// Whatever waits for the daemon polls `status` (a script in a loop, the benchmark every 2 ms):
/// counting 100,000 asset rows at each poll read the whole table, and during a restart a fifth of
/// the daemon's time went to answering it. The counts change only with a write, and any write since
/// they were read drops them (`Store.generation`): a status is never older than its request.
public final class StatusCounts: Sendable {
    /// What `status` reports of the store.
    public struct Counts: Sendable, Equatable {
        public var assets: Int
        public var albums: Int
        public var apps: Int

        public init(assets: Int, albums: Int, apps: Int) {
            self.assets = assets
            self.albums = albums
            self.apps = apps
        }
    }

    private let kept = Mutex<(generation: UInt64, counts: Counts)?>(nil)

    public init() {}

    /// The counts at `generation` (read before the snapshot `read` takes): kept ones when no write
    /// has committed since they were read, else `read`'s, kept for the next.
    public func counts(at generation: UInt64, read: () throws -> Counts) rethrows -> Counts {
        if let held = kept.withLock({ $0 }), held.generation == generation { return held.counts }
        // Read outside the lock: a status waiting on another's read would gain nothing.
        let counts = try read()
        kept.withLock { $0 = (generation, counts) }
        return counts
    }
}
