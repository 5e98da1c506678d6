/// One change the views must follow, in the order the index applied it.
///
/// Paths are those at the moment of the change, so applying a list in order
/// to a view is always consistent, whatever happened later in the batch.
public enum ViewChange: Sendable, Equatable {
    case albumCreated(RelativePath)
    case albumMoved(from: RelativePath, to: RelativePath)
    case albumRemoved(RelativePath)
    /// `old == nil`: inserted; `new == nil`: removed; both: moved and/or content changed.
    case asset(old: LocatedAsset?, new: LocatedAsset?)
}


extension ViewChange {
    /// The asset as it was before the change, when there was one.
    public var oldAsset: LocatedAsset? {
        guard case .asset(let old, _) = self else { return nil }
        return old
    }

    /// The asset as it is after the change, when there is one.
    public var newAsset: LocatedAsset? {
        guard case .asset(_, let new) = self else { return nil }
        return new
    }

    /// The member files an asset change had before it: whose derivatives may have lost their last view.
    public var memberRowIDs: [Int64] {
        oldAsset?.members.map(\.rowID) ?? []
    }
}
