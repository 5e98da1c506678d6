/// One page of a long listing: the order and the window an admin client asked for.
///
/// The page (SPEC §10) shows 100,000 photos newest first and asks for them a
/// screenful at a time; `photolibctl assets` asks for everything by path. Both
/// go through here so the order is one rule, ties included: a page boundary
/// never skips or repeats an asset while the library stands still.
public struct ListingPage: Sendable, Equatable {
    /// The orders a listing can be asked in.
    public enum Order: String, Sendable, CaseIterable {
        /// By path, bytewise (names are bytes; no locale).
        case path
        /// Latest modification first; equal times by path.
        case newest
    }

    public var order: Order
    public var offset: Int
    public var limit: Int?

    /// Reads the request's words; a wrong word or a negative number is an `invalidParameter`.
    public init(order: String?, offset: Int?, limit: Int?) throws(PhotoLibError) {
        if let order {
            guard let known = Order(rawValue: order) else {
                throw .invalidParameter(name: "order", reason: "'\(order)' is not one of \(Order.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.order = known
        } else {
            self.order = .path
        }
        guard (offset ?? 0) >= 0 else { throw .invalidParameter(name: "offset", reason: "it must be 0 or more") }
        guard (limit ?? 0) >= 0 else { throw .invalidParameter(name: "limit", reason: "it must be 0 or more") }
        self.offset = offset ?? 0
        self.limit = limit
    }

    /// `items` in this page's order and window; `path` and `mtime` read each item's sort keys.
    public func apply<Item>(_ items: [Item], path: (Item) -> [UInt8], mtime: (Item) -> Int64) -> ArraySlice<Item> {
        let sorted: [Item]
        switch order {
        case .path:
            sorted = items.sorted { path($0).lexicographicallyPrecedes(path($1)) }
        case .newest:
            sorted = items.sorted { a, b in
                let (ta, tb) = (mtime(a), mtime(b))
                return ta != tb ? ta > tb : path(a).lexicographicallyPrecedes(path(b))
            }
        }
        let start = min(offset, sorted.count)
        let end = limit.map { min(sorted.count, start + $0) } ?? sorted.count
        return sorted[start..<end]
    }
}
