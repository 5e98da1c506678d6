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
    public func apply<Item>(_ items: [Item], path: (Item) -> [UInt8], mtime: (Item) -> Int64) -> [Item] {
        var keys = ListingSortKeys(capacity: items.count)
        for item in items { keys.append(modificationTime: mtime(item), path: path(item)) }
        return window(of: keys).map { items[$0] }
    }

    /// The positions (in `keys`) of the assets on this page, in its order.
    ///
    /// Sorts positions, not items: a comparison reads two spans of one buffer,
    /// so ordering 100,000 paths copies and counts no references.
    public func window(of keys: ListingSortKeys) -> [Int] {
        let count = keys.count
        let start = min(offset, count)
        let end = limit.map { min(count, start + $0) } ?? count
        guard start < end else { return [] }
        var positions = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = Int32(index) }
            initialized = count
        }
        let newestFirst = order == .newest
        keys.bytes.withUnsafeBufferPointer { bytes in
            keys.ends.withUnsafeBufferPointer { ends in
                keys.times.withUnsafeBufferPointer { times in
                    func pathPrecedes(_ a: Int, _ b: Int) -> Bool {
                        let (startA, startB) = (a == 0 ? 0 : ends[a - 1], b == 0 ? 0 : ends[b - 1])
                        let (lengthA, lengthB) = (ends[a] - startA, ends[b] - startB)
                        for offset in 0..<min(lengthA, lengthB) {
                            let (x, y) = (bytes[startA + offset], bytes[startB + offset])
                            if x != y { return x < y }
                        }
                        return lengthA < lengthB
                    }
                    func precedes(_ a: Int32, _ b: Int32) -> Bool {
                        let (a, b) = (Int(a), Int(b))
                        if newestFirst, times[a] != times[b] { return times[a] > times[b] }
                        return pathPrecedes(a, b)
                    }
                    if end <= count / 8 {
                        // An early page of a long listing (the page's first screens): keep only the
                        // first `end` in order as they pass; most keys are refused by one comparison.
                        var top: [Int32] = []
                        top.reserveCapacity(end + 1)
                        for position in positions {
                            if top.count == end, let last = top.last, !precedes(position, last) { continue }
                            var low = 0, high = top.count
                            while low < high {
                                let middle = (low + high) / 2
                                if precedes(position, top[middle]) { high = middle } else { low = middle + 1 }
                            }
                            top.insert(position, at: low)
                            if top.count > end { top.removeLast() }
                        }
                        positions = top
                    } else {
                        positions.sort(by: precedes)
                    }
                }
            }
        }
        return positions[start..<end].map(Int.init)
    }
}

/// The sort keys of a listing, packed: every path in one buffer, with its time.
public struct ListingSortKeys: Sendable {
    fileprivate private(set) var bytes: [UInt8] = []
    fileprivate private(set) var ends: [Int] = []
    fileprivate private(set) var times: [Int64] = []

    public init(capacity: Int) {
        ends.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 24)
    }

    public var count: Int { ends.count }

    /// Adds a key whose path is `parts` joined with `/`, empty parts left out.
    public mutating func append(modificationTime: Int64, path parts: [UInt8]...) {
        var first = true
        for part in parts where !part.isEmpty {
            if !first { bytes.append(0x2F) }
            bytes.append(contentsOf: part)
            first = false
        }
        ends.append(bytes.count)
        times.append(modificationTime)
    }
}

extension ListingSortKeys {
    /// The keys of a listing's assets, each by its album's path in `albums` and
    /// its name; every album's path is read from the tree once.
    public init(_ keys: [ListingKey], albums: AlbumTree) {
        self.init(capacity: keys.count)
        var albumPaths: [AlbumTree.ID: [UInt8]] = [:]
        for key in keys {
            let albumPath = albumPaths[key.album] ?? {
                let bytes = albums.path(of: key.album)?.bytes ?? []
                albumPaths[key.album] = bytes
                return bytes
            }()
            append(modificationTime: key.modificationTime, path: albumPath, key.name)
        }
    }
}
