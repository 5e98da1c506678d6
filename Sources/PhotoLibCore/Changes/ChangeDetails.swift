/// PhotoKit-style change details for one view: apply `removed`, then
/// `inserted`, then `changed`. Each asset appears at most once.
public struct ChangeDetails: Codable, Sendable, Equatable {
    public var removed: [ViewAsset] = []
    public var inserted: [ViewAsset] = []
    public var changed: [ViewAsset] = []

    public init(removed: [ViewAsset] = [], inserted: [ViewAsset] = [], changed: [ViewAsset] = []) {
        self.removed = removed
        self.inserted = inserted
        self.changed = changed
    }

    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && changed.isEmpty }
    public var count: Int { removed.count + inserted.count + changed.count }
}

/// Folds a sequence of per-asset transitions into one `ChangeDetails`.
///
/// What counts for each asset is only whether it was in the view before the
/// first transition and after the last one, and how it looked then: created
/// and deleted within the span is nothing; deleted then re-created is a change.
public struct ChangeCoalescer: Sendable {
    private struct Net {
        var before: ViewAsset?
        var after: ViewAsset?
        var existedBefore: Bool
        /// A logged `changed` entry: reported as changed even though its old form is unknown.
        var knownChanged = false
    }

    private var order: [String] = []
    private var nets: [String: Net] = [:]

    public init() {}

    /// Records that an asset went from `old` (nil: not in the view) to `new` (nil: not in the view).
    public mutating func add(id: String, old: ViewAsset?, new: ViewAsset?) {
        // Out of the view before and after, and not seen yet: nothing to say.
        // Most changes of a burst are this for every app the files are not shared with.
        if old == nil, new == nil, nets.isEmpty || nets[id] == nil { return }
        if var net = nets[id] {
            net.after = new
            nets[id] = net
        } else {
            order.append(id)
            nets[id] = Net(before: old, after: new, existedBefore: old != nil)
        }
    }

    /// Records an already coalesced event, for resuming across several.
    public mutating func add(_ details: ChangeDetails) {
        for asset in details.removed { add(id: asset.id, old: asset, new: nil) }
        for asset in details.inserted { add(id: asset.id, old: nil, new: asset) }
        // A changed asset was in the view before and after; only its new form is known.
        for asset in details.changed {
            add(id: asset.id, old: nets[asset.id]?.after ?? asset, new: asset)
            nets[asset.id]?.knownChanged = true
        }
    }

    public var details: ChangeDetails {
        var out = ChangeDetails()
        for id in order {
            guard let net = nets[id] else { continue }
            switch (net.existedBefore ? net.before : nil, net.after) {
            case (nil, nil): continue
            case (nil, let new?): out.inserted.append(new)
            case (let old?, nil): out.removed.append(old)
            case (let old?, let new?): if old != new || net.knownChanged { out.changed.append(new) }
            }
        }
        return out
    }
}
