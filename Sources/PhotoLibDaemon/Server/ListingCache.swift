import PhotoLibCore
import PhotoLibStore
import Synchronization

/// The last listing's sort keys, kept while the store has not changed.
///
/// The page asks for one screenful at a time, and again each time it opens:
/// reading and packing 100,000 keys costs far more than ordering one window
/// of them. Kept for one filter only (the page's), and taken as stale by any
/// write to the store since: a listing is never older than the request.
final class ListingCache: Sendable {
    struct Entry: Sendable {
        let generation: UInt64
        let filter: ListingFilter
        /// The asset row behind each key.
        let rowIDs: [Int64]
        let keys: ListingSortKeys
    }

    private let entry = Mutex<Entry?>(nil)

    /// The keys for `filter`, when they were read at `generation`.
    func keys(for filter: ListingFilter, generation: UInt64) -> Entry? {
        entry.withLock { kept in
            guard let held = kept else { return nil }
            guard held.generation == generation else {
                kept = nil  // stale for every filter: let go of its memory now, not at the next listing
                return nil
            }
            return held.filter == filter ? held : nil
        }
    }

    func keep(_ new: Entry) {
        entry.withLock { $0 = new }
    }
}
