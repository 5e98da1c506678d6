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
    func expireGrants() async -> Int64? {
        await readyForChange()
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
    private func end(_ due: [ExpiringGrant], of app: AppID) throws {
        let plan = try store.read { tx in try grants.planEnd(due, tree: index.albums, tx: tx) }
        let selection = plan.removesNamed ? try probe(SelectionEdit(assets: plan.assets, albums: plan.albums), of: app, adding: false) : nil
        let (deselected, authorized) = try store.write { tx in
            let ended = try grants.commitEnd(plan, of: app, selection: selection, by: expiryActor, tree: index.albums,
                                             viewAfter: { viewAfter($0, $1) }, tx: tx)
            return (ended.deselected, ended.authorized)
        }
        var changes = try selection.flatMap { selection in try deselected.map { try settling(selection, $0) } } ?? ChangeSet()
        for status in authorized {
            changes.acts = changes.acts.merged(with: status.plan.acts)
            changes.events += status.published
            changes.answer(status.settled, purpose: status.plan.after.purpose)
        }
        try settle(changes)
        for status in authorized { logAuthorization(status.plan) }
        if let deselected {
            logger.notice("The timed grant of \(deselected.plan.changedAssets.count) assets and \(deselected.plan.changedAlbums.count) albums to \(app) ended.")
        }
    }
}
