import PhotoLibConfiguration
import Glibc
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// Edits made through the socket by the library's owner: apps, authorizations, selections.
extension Engine {
    /// Registers an app. With `flatpak`, an installed Flatpak app (it runs as the owner) whose
    /// Pictures folder becomes its view once the person limits it.
    func addApp(_ id: AppID, uid: UInt32, purpose: String, location: LocationPolicy, flatpak: Bool = false) throws -> AppRecord {
        carried.contexts = nil
        if flatpak {
            let files = flatpakFiles
            let installed: Bool
            do {
                installed = try files.metadata(of: id) != nil
            } catch {
                throw PhotoLibError.flatpakOverrideFailed(id, path: files.userDirectory + "/app/" + id.rawValue, errno: error.errno)
            }
            if !installed { throw PhotoLibError.flatpakNotInstalled(id, installations: [files.userDirectory, files.systemDirectory]) }
        }
        var generator = SystemRandomNumberGenerator()
        var record = AppRecord(id: id, uid: flatpak ? views.ownerUID : uid, purpose: purpose, readWrite: .notDetermined, addOnly: .notDetermined,
                               viewName: ViewName.random(using: &generator), location: location,
                               assetIDs: AppAssetIDs.random(using: &generator))
        record.flatpakPictures = flatpak
        try store.write { tx in
            if let existing = try tx.app(id) { throw PhotoLibError.appExists(id, uid: existing.uid) }
            try tx.insertApp(record, createdAt: clock.now())
        }
        try updatePassages()
        try settle(ChangeSet(reconcile: .apps([id])))
        try syncInboxes()
        syncViewOpens(try store.read { try $0.apps() })
        logger.notice("App \(id) registered for uid \(record.uid), location \(location.rawValue)\(flatpak ? ", its view its Flatpak Pictures folder" : "").")
        return record
    }

    /// Sets whether an app sees where photos were taken. Its view is linked
    /// again at once (originals, or derivatives without location), and it is
    /// told to reload: sizes and contents of its entries may have changed.
    func setLocation(_ id: AppID, _ policy: LocationPolicy) throws -> AppRecord {
        carried.contexts = nil
        var published: [PublishedEvent] = []
        let record = try store.write { tx -> AppRecord in
            guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            try tx.setLocation(id, policy)
            if before.location != policy { published.append(try journal.recordReload(id, tx: tx)) }
            guard let after = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            return after
        }
        try settle(ChangeSet(reconcile: .apps([id]), derivatives: .all, events: published))
        logger.notice("App \(id) now has location \(policy.rawValue).")
        return record
    }

    /// Whether captions and people's names leave with the app's picks when the person says nothing.
    /// Views are not changed (SPEC: picks only); nothing to reconcile.
    func setCaptions(_ id: AppID, shared: Bool) throws -> AppRecord {
        let record = try store.write { tx -> AppRecord in
            guard try tx.app(id) != nil else { throw PhotoLibError.unknownApp(id) }
            try tx.setCaptions(id, shared: shared)
            guard let after = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            return after
        }
        logger.notice("App \(id): captions and people's names are \(SharingChoice.captionsWord(shared)) in what it picks.")
        return record
    }

    func removeApp(_ id: AppID) throws {
        carried.contexts = nil
        var withdrawn: [AccessRequest] = []
        let removed = try store.read { tx -> AppRecord in
            guard let record = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            return record
        }
        // The app's own permissions come back before it is forgotten, while the record of photolibd's lines is there.
        try syncPicturesOverride(removed, removing: true)
        try store.write { tx in
            withdrawn = try tx.requests(app: id)  // deleted with the app
            try tx.deleteApp(id)
        }
        try views.removeView(removed, index: index, store: store)
        // The person's tools take down prompts for an app that is gone.
        try settle(ChangeSet(derivatives: .all, events: try withdrawn.map {
            try journal.requestEvent($0, purpose: removed.purpose, state: .cancelled, answer: nil)
        }))
        try syncInboxes()
        syncViewOpens(try store.read { try $0.apps() })
        try updatePassages()
        logger.notice("App \(id) removed; its view is gone.")
    }

    /// Sets an app's status for one access level. Pending requests the change
    /// decides are answered with it (`settleRequests`): the one the person is
    /// answering (`answering`), and any whose question no longer stands.
    /// With `endsAt`, the status lasts until then and returns to what it was
    /// (`ExpiringGrant.returnStatus`); `reason` is `expired` when it is that return.
    func authorize(
        _ id: AppID, access level: AccessLevel, status: AuthorizationStatus, by: EventActor,
        answering: (request: AccessRequest, answer: RequestAnswer)? = nil, addedAssets: [AssetID] = [],
        endsAt: Int64? = nil, reason: String? = nil, confirmed: Bool = false
    ) throws -> (record: AppRecord, settled: [RequestSettlement]) {
        carried.contexts = nil
        defer { carried.contexts = nil }
        var published: [PublishedEvent] = []
        var settled: [RequestSettlement] = []
        if level == .readWrite, let app = try store.read({ try $0.app(id) }) { try checkCanLimit(app, to: status, confirmed: confirmed) }
        let record = try store.write { tx -> AppRecord in
            guard let before = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            let returnsTo = ExpiringGrant.returnStatus(
                current: level == .readWrite ? before.readWrite : before.addOnly, pendingReturn: try tx.authorizationEnd(id, access: level)?.returnsTo)
            try tx.setAuthorization(id, access: level, status: status, endsAt: endsAt, returnsTo: returnsTo)
            guard let after = try tx.app(id) else { throw PhotoLibError.unknownApp(id) }
            settled = try settleRequests(after, answering: answering, addedAssets: addedAssets, tx: tx)
            // The event names the request it answers, so a client that asked knows this is its answer.
            let answered = settled.first { $0.request.id == answering?.request.id }
                ?? settled.first { $0.request.kind == .authorization(level) }
            published.append(try journal.recordAuthorization(
                id, access: level, status: status, by: by, request: answered.map { ($0.request.id, .answered) }, reason: reason,
                endsAt: endsAt, tx: tx))
            if level == .readWrite, before.readWrite != status {
                published.append(try journal.recordReload(id, tx: tx))
            }
            return after
        }
        var changes = ChangeSet(reconcile: .apps([id]), derivatives: .all, events: published)
        changes.answer(settled, purpose: record.purpose)
        try settle(changes)
        try syncPicturesOverride(record, confirmed: confirmed)
        watchPictures([record])
        expiryAlarm.wake()
        let until = endsAt.map { " until \($0) (seconds since 1970)" } ?? (reason.map { " (\($0))" } ?? "")
        logger.notice("App \(id) is now \(status.rawValue) for \(level.rawValue)\(until).")
        return (record, settled)
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

    private func libraryRelativePath(_ text: String) -> RelativePath? {
        RelativePath(typed: text, library: configuration.library)
    }

    /// What a selection edit changed.
    struct SelectionEditOutcome {
        /// Assets named one by one that joined (or left) the selection.
        var assets: [AssetID]
        var albums: [RelativePath]
        /// Named assets whose originals are refused (the edit stands; they show once fixed).
        var refused: [AssetRecord]
        /// Assets the app was not given before and is now, by name or by album (iOS 15's
        /// "newly selected"); empty when removing.
        var added: [AssetID]
        /// The review request this edit answered, if any.
        var settled: [RequestSettlement]
    }

    /// Adds to (or, with `adding: false`, removes from) an app's selection; returns what changed.
    /// With `answering`, the edit is the person's answer to that review request.
    /// With `endsAt`, what is added is granted until then; `reason` is
    /// `expired` when the edit is the removal of grants that ended.
    func editSelection(
        _ id: AppID, assets: [String], albums: [String], adding: Bool, by: EventActor, answering: AccessRequest? = nil,
        endsAt: Int64? = nil, reason: String? = nil
    ) throws -> SelectionEditOutcome {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        let edit = try resolve(assets: assets, albums: albums)
        carried.contexts = nil
        defer { carried.contexts = nil }
        let before = try appContexts(only: id).first
        if adding, app.location == .none, app.layout == .limited {
            // The copies without location of what the edit grants are made now, before the write transaction,
            // which then finds their checks current; it never looks itself (SQLite's write lock is held): what
            // changed meanwhile is looked at when the view is linked, after the commit.
            let granted = try store.read { tx in
                edit.assets + (try tx.assets(inAlbums: edit.albums.flatMap { index.albums.subtree(of: $0) }))
            }
            for record in granted { if let located = index.locate(record) { views.prepareWithoutLocation(located) } }
        }
        var published: [PublishedEvent] = []
        var added: [AssetID] = []
        var settled: [RequestSettlement] = []
        let (changedIDs, changedAlbums, changes) = try store.write { tx in
            // Granted before and after, whatever the status: what the person newly added.
            let grantedBefore = try tx.viewPolicy(of: app, as: .limited)
            let changedAssets = adding ? try tx.selectAssets(id, rowIDs: edit.assets.map(\.rowID), endsAt: endsAt)
                : try tx.deselectAssets(id, rowIDs: edit.assets.map(\.rowID))
            let changedAlbums = adding ? try tx.selectAlbums(id, albums: edit.albums, endsAt: endsAt) : try tx.deselectAlbums(id, albums: edit.albums)
            var affected = edit.assets.filter { changedAssets.contains($0.rowID) }
            if !changedAlbums.isEmpty {
                affected += try tx.assets(inAlbums: changedAlbums.flatMap { index.albums.subtree(of: $0) })
            }
            let changes: [ViewChange] = affected.compactMap { record in
                index.locate(record).map { .asset(old: $0, new: $0) }
            }
            let changedIDs = edit.assets.filter { changedAssets.contains($0.rowID) }.map(\.id)
            if adding {
                let grantedAfter = try tx.viewPolicy(of: app, as: .limited)
                added = grantedBefore.newlyGranted(by: grantedAfter, among: changes.compactMap(\.newAsset))
            }
            if let answering {
                guard try tx.request(id: answering.id) != nil else { throw PhotoLibError.unknownRequest(answering.id) }
                try tx.deleteRequest(answering.id)
                settled.append(RequestSettlement(request: answering, outcome: RequestOutcome(
                    app: id, kind: answering.kind, request: answering.id, state: .answered, answer: RequestAnswer.limited.rawValue,
                    status: app.readWrite, addedAssets: added.map { app.assetIDs.id(for: $0).rawValue })))
            }
            published.append(try journal.recordSelection(
                id, addedAssets: adding ? changedIDs.map { app.assetIDs.id(for: $0).rawValue } : [],
                removedAssets: adding ? [] : changedIDs.map { app.assetIDs.id(for: $0).rawValue },
                addedAlbums: adding ? changedAlbums.count : 0, removedAlbums: adding ? 0 : changedAlbums.count, by: by,
                request: answering.map { ($0.id, .answered) }, reason: reason, endsAt: adding ? endsAt : nil, tx: tx))
            // What the view gained or lost: visibility before the edit against after it.
            if app.layout == .limited, let before {
                let after = AppViewContext(app: app, policy: try tx.viewPolicy(of: app), appearance: appearance(for: app))
                if adding { decideWithoutLocation(changes.compactMap(\.newAsset), for: [after]) }
                let details = before.changes(to: after, touching: changes.compactMap(\.oldAsset))
                if !details.isEmpty { published.append(try journal.recordChange(id, details, reason: reason, tx: tx)) }
            }
            return (changedIDs, changedAlbums, changes)
        }
        var settling = ChangeSet(derivatives: adding ? .untouched : .members(changes.flatMap(\.memberRowIDs)), events: published)
        settling.answer(settled, purpose: app.purpose)
        if app.layout == .limited {
            // Old and new location are the same: the view maintainer links or
            // unlinks each entry by its visibility under the new selection.
            let removals: [ViewChange] = adding ? [] : changes
            let additions: [ViewChange] = adding ? changes.map { change in
                if case .asset(_, let new) = change { return .asset(old: nil, new: new) }
                return change
            } : []
            settling.incremental = (removals + additions, try appContexts(only: id))
        }
        try settle(settling)
        if endsAt != nil { expiryAlarm.wake() }
        let changedAlbumPaths = changedAlbums.compactMap { index.albums.path(of: $0) }
        logger.info("Selection of \(id) \(adding ? "gained" : "lost") \(changedIDs.count) assets and \(changedAlbumPaths.count) albums.")
        // Named assets whose originals are refused: the edit stands (it shows once
        // the file is fixed), and the person hears why it is not in the view.
        let refused = adding ? try store.read { tx in try edit.assets.compactMap { try tx.asset(rowID: $0.rowID) } }
            .filter { $0.refusal != nil } : []
        return SelectionEditOutcome(assets: changedIDs, albums: changedAlbumPaths, refused: refused, added: added, settled: settled)
    }
}
