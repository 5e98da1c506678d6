import PhotoLibConfiguration
import Glibc
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// Edits made through the socket by the library's owner: apps, authorizations, selections.
extension Engine {
    func addApp(_ id: AppID, uid: UInt32, purpose: String) throws -> AppRecord {
        cachedContexts = nil
        var generator = SystemRandomNumberGenerator()
        let record = AppRecord(id: id, uid: uid, purpose: purpose, readWrite: .notDetermined, addOnly: .notDetermined,
                               viewName: ViewName.random(using: &generator))
        try store.write { tx in
            if let existing = try tx.app(id) { throw PhotoLibError.appExists(id, uid: existing.uid) }
            try tx.insertApp(record, createdAt: Int64(time(nil)))
        }
        try updatePassages()
        _ = try views.reconcile(record, index: index, store: store, libraryAvailable: libraryAvailable)
        logger.notice("App \(id) registered for uid \(uid).")
        return record
    }

    func removeApp(_ id: AppID) throws {
        cachedContexts = nil
        let removed = try store.write { tx -> AppRecord in
            guard let record = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            try tx.deleteApp(id)
            return record
        }
        try views.removeView(removed)
        try updatePassages()
        logger.notice("App \(id) removed; its view is gone.")
    }

    func authorize(_ id: AppID, access level: AccessLevel, status: AuthorizationStatus, by: EventActor) throws -> AppRecord {
        cachedContexts = nil
        defer { cachedContexts = nil }
        var published: [PublishedEvent] = []
        let record = try store.write { tx -> AppRecord in
            guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            try tx.setAuthorization(id, access: level, status: status)
            published.append(try journal.recordAuthorization(id, access: level, status: status, by: by, tx: tx))
            if level == .readWrite, before.readWrite != status {
                published.append(try journal.recordReload(id, tx: tx))
            }
            return try tx.app(id)!
        }
        _ = try views.reconcile(record, index: index, store: store, libraryAvailable: libraryAvailable)
        try recordLearnedRefusals()
        hub.publish(published)
        logger.notice("App \(id) is now \(status.rawValue) for \(level.rawValue).")
        return record
    }

    /// A selection edit as resolved references.
    struct SelectionEdit {
        var assets: [AssetRecord]
        var albums: [AlbumTree.ID]
    }

    /// Resolves what a person typed: asset IDs, paths in the library, album paths.
    func resolve(assets: [String], albums albumTexts: [String]) throws -> SelectionEdit {
        var edit = SelectionEdit(assets: [], albums: [])
        try store.read { tx in
            for text in assets {
                if let id = AssetID(text), let record = try tx.asset(id: id) {
                    edit.assets.append(record)
                    continue
                }
                guard let path = libraryRelativePath(text), let name = path.lastComponent,
                      let album = index.albums.album(at: path.parent ?? .root),
                      let record = try tx.asset(album: album, name: name) else {
                    throw AssetID(text) != nil ? PhotoLibError.unknownAsset(text) : PhotoLibError.notAnAsset(path: text)
                }
                edit.assets.append(record)
            }
        }
        for text in albumTexts {
            guard let path = libraryRelativePath(text), let album = index.albums.album(at: path) else {
                throw PhotoLibError.unknownAlbum(path: text)
            }
            edit.albums.append(album)
        }
        return edit
    }

    /// A path as typed: relative to the library, or absolute inside it.
    private func libraryRelativePath(_ text: String) -> RelativePath? {
        var relative = text
        let prefix = configuration.library.hasSuffix("/") ? configuration.library : configuration.library + "/"
        if text.hasPrefix("/") {
            guard text.hasPrefix(prefix) || text == configuration.library else { return nil }
            relative = String(text.dropFirst(min(prefix.count, text.count)))
        }
        return RelativePath(escaped: relative)
    }

    /// Adds to (or, with `adding: false`, removes from) an app's selection; returns what changed.
    func editSelection(
        _ id: AppID, assets: [String], albums: [String], adding: Bool, by: EventActor
    ) throws -> (assets: [AssetID], albums: [RelativePath], refused: [AssetRecord]) {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        let edit = try resolve(assets: assets, albums: albums)
        cachedContexts = nil
        defer { cachedContexts = nil }
        let before = try appContexts(only: id).first
        var published: [PublishedEvent] = []
        let (changedIDs, changedAlbums, changes) = try store.write { tx in
            let changedAssets = adding ? try tx.selectAssets(id, rowIDs: edit.assets.map(\.rowID)) : try tx.deselectAssets(id, rowIDs: edit.assets.map(\.rowID))
            let changedAlbums = adding ? try tx.selectAlbums(id, albums: edit.albums) : try tx.deselectAlbums(id, albums: edit.albums)
            var affected = edit.assets.filter { changedAssets.contains($0.rowID) }
            if !changedAlbums.isEmpty {
                affected += try tx.assets(inAlbums: changedAlbums.flatMap { index.albums.subtree(of: $0) })
            }
            let changes: [ViewChange] = affected.compactMap { record in
                index.locate(record).map { .asset(old: $0, new: $0) }
            }
            let changedIDs = edit.assets.filter { changedAssets.contains($0.rowID) }.map(\.id)
            published.append(try journal.recordSelection(
                id, addedAssets: adding ? changedIDs.map(\.rawValue) : [], removedAssets: adding ? [] : changedIDs.map(\.rawValue),
                addedAlbums: adding ? changedAlbums.count : 0, removedAlbums: adding ? 0 : changedAlbums.count, by: by, tx: tx))
            // What the view gained or lost: visibility before the edit against after it.
            if app.layout == .limited, let before {
                let after = AppViewContext(app: app, selectedAssets: try tx.selectedAssetRowIDs(id), selectedAlbums: try tx.selectedAlbums(id))
                var coalescer = ChangeCoalescer()
                for case .asset(let old?, _) in changes {
                    coalescer.add(id: old.id.rawValue, old: before.viewAsset(old), new: after.viewAsset(old))
                }
                let details = coalescer.details
                if !details.isEmpty { published.append(try journal.recordChange(id, details, tx: tx)) }
            }
            return (changedIDs, changedAlbums, changes)
        }
        if app.layout == .limited {
            // Old and new location are the same: the view maintainer links or
            // unlinks each entry by its visibility under the new selection.
            let contexts = try appContexts(only: id)
            let removals: [ViewChange] = adding ? [] : changes
            let additions: [ViewChange] = adding ? changes.map { change in
                if case .asset(_, let new) = change { return .asset(old: nil, new: new) }
                return change
            } : []
            if !views.apply(removals + additions, to: contexts).isEmpty {
                _ = try views.reconcile(app, index: index, store: store, libraryAvailable: libraryAvailable)
            }
        }
        hub.publish(published)
        let changedAlbumPaths = changedAlbums.compactMap { index.albums.path(of: $0) }
        logger.info("Selection of \(id) \(adding ? "gained" : "lost") \(changedIDs.count) assets and \(changedAlbumPaths.count) albums.")
        try recordLearnedRefusals()
        // Named assets whose originals are refused: the edit stands (it shows once
        // the file is fixed), and the person hears why it is not in the view.
        let refused = adding ? try store.read { tx in try edit.assets.compactMap { try tx.asset(rowID: $0.rowID) } }
            .filter { $0.refusal != nil } : []
        return (changedIDs, changedAlbumPaths, refused)
    }
}
