import Glibc
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// Grants that end (SPEC §9): at the moment a timed selection or status ends,
/// its links go and the app hears it with `reason: "expired"`; a status
/// returns to what it was. Ends that passed while the daemon was stopped are
/// carried out at start, before any view is reconciled.
extension Engine {
    /// Who ends a grant, in the events: the daemon itself, for the person who set the end.
    var expiryActor: EventActor { EventActor(uid: ownerUID, role: .expiry) }

    /// Ends every grant whose time has come; returns when the next one ends (nil: none).
    func expireGrants() -> Int64? {
        let now = clock.now()
        let grants: [ExpiringGrant]
        do {
            grants = try store.read { try $0.expiringGrants() }
        } catch {
            logger.error("Cannot read which grants end: \(error); trying again in a minute.")
            return now + 60
        }
        let (ended, next) = ExpiringGrant.due(grants, now: now)
        guard !ended.isEmpty else { return next }
        for (app, grants) in Dictionary(grouping: ended, by: \.app).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            do {
                try end(grants, of: app)
            } catch {
                logger.error("Cannot end the timed grants of \(app): \(error); trying again in a minute.")
                return now + 60
            }
        }
        do {
            let left = try store.read { try $0.expiringGrants() }
            // A grant still due now could not be ended: try again later, not at once.
            return left.contains { $0.endsAt <= now } ? now + 60 : left.first?.endsAt
        } catch {
            return now + 60
        }
    }

    /// Ends an app's grants that are due, in one transaction and one settle: the photos and albums
    /// leave its selection (those the index cannot name any more only lose their grant), and each
    /// status returns to what it was.
    private func end(_ grants: [ExpiringGrant], of app: AppID) throws {
        var assetRows: [Int64] = []
        var albums: [AlbumTree.ID] = []
        var statuses: [AuthorizationChange] = []
        for grant in grants {
            switch grant.kind {
            case .asset(let row): assetRows.append(row)
            case .album(let album): albums.append(album)
            case .authorization(let level, let returnsTo):
                statuses.append(AuthorizationChange(app: app, level: level, status: returnsTo, by: expiryActor, reason: "expired"))
            }
        }
        let records = try store.read { tx in try assetRows.map { ($0, try tx.asset(rowID: $0)) } }
        // Rows the index cannot name (gone meanwhile): nothing of them is in a view; only the grant goes.
        let unnamedRows = records.filter { $0.1 == nil }.map(\.0)
        let named = SelectionEdit(assets: records.compactMap(\.1), albums: albums.filter { index.albums.path(of: $0) != nil })
        let unnamedAlbums = albums.filter { index.albums.path(of: $0) == nil }
        let selection = named.assets.isEmpty && named.albums.isEmpty ? nil : try probe(named, of: app, adding: false)
        let (deselected, authorized) = try store.write { tx in
            _ = try tx.deselectAssets(app, rowIDs: unnamedRows)
            _ = try tx.deselectAlbums(app, albums: unnamedAlbums)
            let deselected = try selection.map { try commit($0, by: expiryActor, reason: "expired", tx: tx) }
            return (deselected, try statuses.map { try commit($0, tx: tx) })
        }
        var changes: ChangeSet
        if let selection, let deselected {
            changes = try settling(selection, deselected)
        } else {
            changes = ChangeSet()
        }
        if let record = authorized.last?.record {
            changes.reconcile = .apps([app])
            changes.derivatives = .all
            changes.events += authorized.flatMap(\.published)
            changes.answer(authorized.flatMap(\.settled), purpose: record.purpose)
            follow(record, confirmed: false, in: &changes)
        }
        try settle(changes)
        for change in statuses { logAuthorization(change) }
        if let deselected {
            logger.notice("The timed grant of \(deselected.changedIDs.count) assets and \(deselected.changedAlbums.count) albums to \(app) ended.")
        }
    }
}
