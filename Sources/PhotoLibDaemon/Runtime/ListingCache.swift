import PhotoLibCore
import Synchronization

/// The last listing's sort keys, kept while the store has not changed.
///
/// The page asks for one screenful at a time, and again each time it opens:
/// reading and packing 100,000 keys costs far more than ordering one window
/// of them. Kept for one filter only (the page's), and taken as stale by any
/// write to the store since: a listing is never older than the request.
public final class ListingCache: Sendable {
    public struct Entry: Sendable {
        public let generation: UInt64
        public let filter: ListingFilter
        /// The asset row behind each key.
        public let rowIDs: [Int64]
        public let keys: ListingSortKeys

        public init(generation: UInt64, filter: ListingFilter, rowIDs: [Int64], keys: ListingSortKeys) {
            self.generation = generation
            self.filter = filter
            self.rowIDs = rowIDs
            self.keys = keys
        }
    }

    private let entry = Mutex<Entry?>(nil)

    public init() {}

    /// The keys for `filter`, when they were read at `generation`.
    public func keys(for filter: ListingFilter, generation: UInt64) -> Entry? {
        entry.withLock { kept in
            guard let held = kept else { return nil }
            guard held.generation == generation else {
                kept = nil  // stale for every filter: let go of its memory now, not at the next listing
                return nil
            }
            return held.filter == filter ? held : nil
        }
    }

    public func keep(_ new: Entry) {
        entry.withLock { $0 = new }
    }
}
