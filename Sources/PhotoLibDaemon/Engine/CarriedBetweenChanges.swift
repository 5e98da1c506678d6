import PhotoLibCore

/// What one change leaves for the next: every app's view context, and the last watch
/// batch while its links are made on other threads.
struct CarriedBetweenChanges {
    /// Every app's view context, as read when the store's app state was at `version`
    /// (`Store.appStateVersion`): kept until a commit changes an app, a selection or a rule.
    /// Safe to keep across library changes: deleting an asset can leave its row ID in a
    /// kept selection, but row IDs are never reused (AUTOINCREMENT), so it matches nothing.
    var contexts: (version: UInt64, contexts: [AppViewContext])?
    /// The last batch, while its links are made on other threads (`Engine+Pipeline`).
    var tail: ChangeSet?
    /// Held while a batch waits for the last one's links between its commit and its settle.
    var gate = SettleGate()
}
