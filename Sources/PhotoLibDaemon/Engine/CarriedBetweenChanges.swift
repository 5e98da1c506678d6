import PhotoLibCore

/// What one change leaves for the next: every app's view context, and the last watch
/// batch while its links are made on other threads.
struct CarriedBetweenChanges {
    /// Every app's view context, with the store's generation it was read at: good while no write has
    /// committed since (any write may change an app, a selection, a rule or a refusal), or since only
    /// writes that change none of them (a library batch, location checks learned), which carry it
    /// forward (`keepContexts`). A library batch leaves them right: deleting an asset can leave its
    /// row ID in a cached selection, but row IDs are never reused (AUTOINCREMENT), so it matches nothing.
    var contexts: (contexts: [AppViewContext], generation: UInt64)?
    /// The last batch, while its links are made on other threads (`Engine+Pipeline`).
    var tail: ChangeSet?
}
