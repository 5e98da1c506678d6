import PhotoLibCore
import PhotoLibStore

/// What decides one app's view: its authorization and its selection.
///
/// The view maintainer (which links) and the change journal (which tells the
/// app) both ask this type, so what an app is told always matches its directory.
struct AppViewContext {
    var app: AppRecord
    var selectedAssets: Set<Int64>
    var selectedAlbums: Set<AlbumTree.ID>

    var layout: ViewLayout { app.layout }

    /// True when the asset belongs in this app's view.
    func isVisible(_ asset: LocatedAsset) -> Bool {
        if asset.record.refusal != nil { return false }
        switch layout {
        case .empty: return false
        case .full: return true
        case .limited:
            return selectedAssets.contains(asset.record.rowID) || asset.ancestry.contains(where: selectedAlbums.contains)
        }
    }

    /// Where the asset's entry is (or would be) in the view, whether or not it is visible.
    func entryPath(_ asset: LocatedAsset) -> RelativePath {
        switch layout {
        case .full, .empty:
            return asset.path
        case .limited:
            let record = asset.record
            return RelativePath([ViewEntryNaming.limitedEntryName(id: record.id, originalName: record.name, mediaType: record.mediaType)])
        }
    }

    /// The asset as the app sees it, or nil when it is not in the view.
    func viewAsset(_ asset: LocatedAsset?) -> ViewAsset? {
        guard let asset, isVisible(asset) else { return nil }
        let record = asset.record
        return ViewAsset(id: record.id.rawValue, entry: entryPath(asset).escaped, mediaType: record.mediaType.rawValue,
                         size: record.file.size, mtime: record.file.modificationTime)
    }
}
