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

    private func end(_ grants: [ExpiringGrant], of app: AppID) throws {
        var assetRows: [Int64] = []
        var albums: [AlbumTree.ID] = []
        for grant in grants {
            switch grant.kind {
            case .asset(let row): assetRows.append(row)
            case .album(let album): albums.append(album)
            case .authorization(let level, let returnsTo):
                _ = try authorize(app, access: level, status: returnsTo, by: expiryActor, reason: "expired")
            }
        }
        guard !assetRows.isEmpty || !albums.isEmpty else { return }
        let named = try store.read { tx in try assetRows.map { ($0, try tx.asset(rowID: $0)?.id.rawValue) } }
        let assetIDs = named.compactMap(\.1)
        let albumPaths = albums.compactMap { index.albums.path(of: $0)?.escaped }
        let unnamedRows = named.filter { $0.1 == nil }.map(\.0)
        let unnamedAlbums = albums.filter { index.albums.path(of: $0) == nil }
        if !unnamedRows.isEmpty || !unnamedAlbums.isEmpty {
            // Rows the index cannot name (gone meanwhile): nothing of them is in a view; only the grant goes.
            try store.write { tx in
                _ = try tx.deselectAssets(app, rowIDs: unnamedRows)
                _ = try tx.deselectAlbums(app, albums: unnamedAlbums)
            }
        }
        _ = try editSelection(app, assets: assetIDs, albums: albumPaths, adding: false, by: expiryActor, reason: "expired")
        logger.notice("The timed grant of \(assetIDs.count) assets and \(albumPaths.count) albums to \(app) ended.")
    }
}
