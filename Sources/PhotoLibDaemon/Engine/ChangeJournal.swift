import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// An event ready to send: one written to an app's log, or an admin event.
struct PublishedEvent: Sendable {
    let app: AppID
    /// nil for an admin event (a `request`): it is in no app's history, and
    /// only admin subscribers get it.
    let token: Int64?
    /// One JSON line, newline included.
    let line: [UInt8]
    /// Sent to every subscriber that follows `app`, an app's own as well as an admin's, though it has
    /// no token (a `library` event).
    var toEverySubscriber = false
}

/// Turns index changes and admin edits into per-app events in the change log.
///
/// Called inside the transaction that makes the change, so the log and the
/// index never disagree, whatever instant the daemon dies at.
struct ChangeJournal {
    let retention: Int
    private let coder = MessageCoder()

    init(retention: Int) {
        self.retention = retention
    }

    /// One change event per app whose view a batch of library changes touched,
    /// as `ChangeHearing` decides; the assets under a moved album are read once for every app.
    func recordLibraryChanges(
        _ changes: [ViewChange], overflowed: Bool, contexts: [AppViewContext], albums: AlbumTree, tx: StoreTransaction
    ) throws -> [PublishedEvent] {
        var movedAssets: [RelativePath: [LocatedAsset]] = [:]
        if !overflowed, contexts.contains(where: { $0.layout == .full }) {
            for case .albumMoved(_, let to) in changes {
                guard let album = albums.album(at: to) else { continue }
                movedAssets[to] = try tx.assets(inAlbums: albums.subtree(of: album)).compactMap { LocatedAsset($0, in: albums) }
            }
        }
        var out: [PublishedEvent] = []
        for context in contexts {
            switch ChangeHearing.notice(layout: context.layout, hasAlbumGrants: !context.selectedAlbums.isEmpty, changes: changes,
                                        overflowed: overflowed, movedAssets: movedAssets, viewAsset: context.viewAsset) {
            case .nothing: continue
            case .reload: out.append(try recordReload(context.app.id, tx: tx))
            case .details(let details): out.append(try recordChange(context.app.id, details, tx: tx))
            }
        }
        return out
    }

    /// "Too different: reload" — after an authorization change, or changes too many to list.
    func recordReload(_ app: AppID, tx: StoreTransaction) throws -> PublishedEvent {
        try append(app, kind: .change, tx: tx) { token in
            ChangeEvent(app: app.rawValue, token: token, incremental: false, details: ChangeDetails())
        }
    }

    func recordChange(_ app: AppID, _ details: ChangeDetails, reason: String? = nil, tx: StoreTransaction) throws -> PublishedEvent {
        try append(app, kind: .change, tx: tx) { token in
            ChangeEvent(app: app.rawValue, token: token, incremental: true, details: details, reason: reason)
        }
    }

    /// - Parameter request: the app's request this answers (`answered` or `cancelled`), if any.
    func recordAuthorization(
        _ app: AppID, access: AccessLevel, status: AuthorizationStatus, by: EventActor,
        request: (id: Int64, state: RequestState)? = nil, reason: String? = nil, endsAt: Int64? = nil, tx: StoreTransaction
    ) throws -> PublishedEvent {
        try append(app, kind: .authorization, tx: tx) { token in
            AuthorizationEvent(app: app.rawValue, token: token, access: access.rawValue, status: status.rawValue, by: by,
                               request: request?.id, state: request?.state.rawValue, reason: reason, endsAt: endsAt)
        }
    }

    func recordSelection(
        _ app: AppID, addedAssets: [String], removedAssets: [String], addedAlbums: Int, removedAlbums: Int, by: EventActor,
        request: (id: Int64, state: RequestState)? = nil, reason: String? = nil, endsAt: Int64? = nil, tx: StoreTransaction
    ) throws -> PublishedEvent {
        try append(app, kind: .selection, tx: tx) { token in
            SelectionEvent(app: app.rawValue, token: token, addedAssets: addedAssets, removedAssets: removedAssets,
                           addedAlbums: addedAlbums, removedAlbums: removedAlbums, by: by, request: request?.id, state: request?.state.rawValue,
                           reason: reason, endsAt: endsAt)
        }
    }

    func recordImport(_ app: AppID, name: FileName, state: ImportRecord.State, asset: ViewAsset? = nil, assetID: AssetID? = nil,
                      refusal: InboxRefusal? = nil, rejectedAs: FileName? = nil, tx: StoreTransaction) throws -> PublishedEvent {
        try append(app, kind: .import, tx: tx) { token in
            ImportEvent(app: app.rawValue, token: token, name: name.escaped, state: state.rawValue, asset: asset,
                        assetID: asset == nil ? assetID?.rawValue : nil, code: refusal?.code, reason: refusal?.reason,
                        rejected: rejectedAs.map { "rejected/" + $0.escaped })
        }
    }

    /// An admin `request` event: not logged (it is in no app's history).
    func requestEvent(_ request: AccessRequest, purpose: String, state: RequestState, answer: String?) throws -> PublishedEvent {
        let event = RequestEvent(request, purpose: purpose, state: state, answer: answer)
        return PublishedEvent(app: request.app, token: nil, line: try coder.encodeLine(event))
    }

    /// A `library` event for each app, for every subscriber that follows it: the server away
    /// (`outage`) or back (nil). In no app's history.
    func libraryEvents(_ apps: [AppID], outage: LibraryOutage?) throws -> [PublishedEvent] {
        try apps.map { app in
            let event = LibraryEvent(app: app.rawValue, state: outage == nil ? "available" : "unavailable", since: outage?.since, reason: outage?.reason)
            return PublishedEvent(app: app, token: nil, line: try coder.encodeLine(event), toEverySubscriber: true)
        }
    }

    private func append<E: Encodable>(_ app: AppID, kind: LoggedEvent.Kind, tx: StoreTransaction, _ make: (Int64) -> E) throws -> PublishedEvent {
        var line: [UInt8] = []
        let logged = try tx.appendEvent(app, kind: kind, retention: retention) { token in
            line = try coder.encodeLine(make(token))
            return Array(line.dropLast())
        }
        return PublishedEvent(app: app, token: logged.token, line: line)
    }
}
