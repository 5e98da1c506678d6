import PhotoLibCore

/// The views' stamps between a clean stop and the next start (`ViewStamps`): those the start took
/// from the store, until its scan has used them, and whether the views are in step with the index,
/// which a stop must know before it records any.
struct ViewStampKeeping {
    /// The stamps the last clean stop left, until the start's scan takes them (or a change settled
    /// before it fails: the views may then be short of what the store says).
    var recorded: ViewStamps?
    /// Whether every view is what the index and the grants say: true once a settle that reconciled
    /// every view has ended without an error, and while each settle since has too.
    var inStep = false
}
