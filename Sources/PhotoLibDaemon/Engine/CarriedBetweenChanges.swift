import PhotoLibCore

/// What one change leaves for the next: every app's view context, and the last watch
/// batch while its links are made on other threads.
struct CarriedBetweenChanges {
    /// Every app's view context, between admin edits. Safe to keep across
    /// library changes: deleting an asset can leave its row ID in a cached
    /// selection, but row IDs are never reused (AUTOINCREMENT), so it matches nothing.
    var contexts: [AppViewContext]?
    /// The last batch, while its links are made on other threads (`Engine+Pipeline`).
    var tail: ChangeSet?
}
