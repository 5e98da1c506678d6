import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

extension RequestRouter {
    /// The app a view request is about (`PeerRole.target`).
    func targetApp(_ requested: String?, _ connection: Connection) throws(PhotoLibError) -> AppID {
        try connection.role.target(requested)
    }

    /// The view's assets and its token, from one read snapshot.
    func list(_ app: AppID) throws -> ListResult {
        try store.read { tx in
            guard let record = try tx.app(app), let tokens = try tx.tokens(app) else { throw PhotoLibError.unknownApp(app) }
            // Off the engine: members appear as the stored location checks say.
            let checks = record.location == .none ? try tx.locationChecks() : [:]
            let context = AppViewContext(app: record, policy: try tx.viewPolicy(of: record),
                                         appearance: { MemberAppearance.of(policy: record.location, file: $0.file, check: checks[$0.rowID]) })
            let albums = try tx.albumTree()
            let candidates: [AssetRecord]
            switch record.layout {
            case .empty: candidates = []
            case .limited: candidates = try tx.visibleAssets(limitedApp: app)
            case .full: candidates = try tx.assets(albums: nil, mediaType: nil, nameContains: nil)
            }
            let assets = candidates.compactMap { asset in context.viewAsset(LocatedAsset(asset, in: albums)) }
            return ListResult(app: app.rawValue, token: tokens.last, status: record.readWrite.rawValue, assets: assets.sorted { $0.entry < $1.entry })
        }
    }

    /// Registers the subscription first (live events wait), then reads what the
    /// client missed, then sends reply, delta and the waiting events in order:
    /// no event is lost or repeated between the snapshot and live delivery.
    func subscribe(_ p: SubscribeParams, id: RequestID?, connection: Connection) throws {
        let single: AppID?
        if p.app == nil, connection.role == .admin {
            guard p.since == nil else { throw PhotoLibError.sinceNeedsOneApp }
            single = nil
        } else {
            single = try targetApp(p.app, connection)
        }
        let subscription = Subscription(channel: connection.channel, apps: single.map { [$0] }, isAdmin: connection.role == .admin)
        connection.replaceSubscription(subscription)
        do {
            let (result, delta, after) = try store.read { tx -> (SubscribeResult, [[UInt8]], [AppID: Int64]) in
                // A person's tools that subscribe hear at once what is waiting for them.
                let waiting = connection.role == .admin ? try pendingRequestLines(single, tx: tx) : []
                guard let single else {
                    let apps = try tx.apps()
                    var after: [AppID: Int64] = [:]
                    for app in apps { after[app.id] = try tx.tokens(app.id)?.last ?? 0 }
                    return (SubscribeResult(apps: apps.map(\.id.rawValue), token: nil), waiting + libraryAwayLines(apps.map(\.id)), after)
                }
                guard let tokens = try tx.tokens(single) else { throw PhotoLibError.unknownApp(single) }
                var delta: [[UInt8]] = []
                if let since = p.since {
                    if since > tokens.last { throw PhotoLibError.sinceInFuture(since: since, current: tokens.last) }
                    if since < tokens.floor {
                        delta.append(encode(ResetEvent(app: single.rawValue, token: tokens.last,
                                                       reason: "The token \(since) is older than the kept history; reload the view with list.")))
                    } else {
                        delta = try resumeDelta(single, since: since, current: tokens.last, tx: tx)
                    }
                }
                return (SubscribeResult(apps: [single.rawValue], token: tokens.last), waiting + delta + libraryAwayLines([single]),
                        [single: tokens.last])
            }
            subscription.activate(reply: reply(id, result), delta: delta, after: after)
        } catch {
            connection.replaceSubscription(nil)
            throw error
        }
    }

    /// While the library's server is away, a `library` event (`unavailable`) for each app followed:
    /// a subscriber that comes meanwhile hears it as one that was there did.
    private func libraryAwayLines(_ apps: [AppID]) -> [[UInt8]] {
        guard let outage = board.snapshot.outage else { return [] }
        return apps.map { encode(LibraryEvent(app: $0.rawValue, state: "unavailable", since: outage.since, reason: outage.reason)) }
    }

    /// A `request` event (state `pending`) for each request waiting for the person.
    private func pendingRequestLines(_ app: AppID?, tx: StoreTransaction) throws -> [[UInt8]] {
        try tx.requests(app: app).map { request in
            encode(RequestEvent(request, purpose: try tx.app(request.app)?.purpose ?? "", state: .pending, answer: nil))
        }
    }

    /// Everything after `since`, coalesced: authorization and selection events as
    /// they were, then one change event carrying the net change (token: the current one).
    private func resumeDelta(_ app: AppID, since: Int64, current: Int64, tx: StoreTransaction) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var coalescer = ChangeCoalescer()
        var incremental = true
        var sawChange = false
        for event in try tx.events(app, after: since) {
            if event.kind == .change {
                let change = try coder.decode(ChangeEvent.self, from: event.body)
                sawChange = true
                if !change.incremental { incremental = false }
                coalescer.add(change.details)
            } else {
                lines.append(event.body + [0x0A])
            }
        }
        if sawChange {
            lines.append(encode(ChangeEvent(app: app.rawValue, token: current, incremental: incremental,
                                            details: incremental ? coalescer.details : ChangeDetails())))
        }
        return lines
    }
}
