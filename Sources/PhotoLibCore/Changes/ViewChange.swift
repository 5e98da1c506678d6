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

