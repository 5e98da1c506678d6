public import PhotoLibCore

extension StoreTransaction {
    /// What an app is granted, read from this snapshot: the one place a `ViewPolicy` is built from the store.
    /// `layout` reads the app as if it had that layout (a limited app's selection, whatever its status
    /// now); the selection is read only for the limited layout, the only one it shapes.
    public func viewPolicy(of app: AppRecord, as layout: ViewLayout? = nil) throws -> ViewPolicy {
        let layout = layout ?? app.layout
        guard layout == .limited else { return ViewPolicy(layout: layout, ids: app.assetIDs) }
        return ViewPolicy(layout: .limited, selectedAssets: try selectedAssetRowIDs(app.id), selectedAlbums: try selectedAlbums(app.id),
                          selectedRules: try selectedRules(app.id), ids: app.assetIDs)
    }
}
