import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// What the router answers from the store alone, off the engine: each a read transaction and its reply.
extension RequestRouter {
    /// `authorizationStatus`: an app's two statuses.
    func authorizationStatus(of app: AppID) throws -> AuthorizationStatusResult {
        try store.read { tx in
            guard let record = try tx.app(app) else { throw PhotoLibError.unknownApp(app) }
            return AuthorizationStatusResult(app: app.rawValue, readWrite: record.readWrite.rawValue, addOnly: record.addOnly.rawValue)
        }
    }

    /// `timeline`: how many photos each month holds, by capture date.
    func timeline() throws -> TimelineResult {
        let dated = try store.read { try $0.datedAssets() }
        let months = MonthTally.tally(dated, monthOf: LocalTime.month(containing:))
        return TimelineResult(months: months.map { MonthSummary(month: $0.month, assets: $0.assets) })
    }

    /// `apps`: every registered app as the table shows it.
    func apps() throws -> AppsResult {
        AppsResult(apps: try store.read { tx in try tx.apps().map { try appInfo($0, tx) } })
    }

    /// `requests`: the requests waiting for the person, of one app or all, and how many connections wait for each.
    func pendingRequests(_ p: RequestsParams) throws -> RequestsResult {
        let app = try p.app.map { text throws(PhotoLibError) in try appID(text) }
        return RequestsResult(requests: try store.read { tx in
            if let app, try tx.app(app) == nil { throw PhotoLibError.unknownApp(app) }
            return try tx.requests(app: app).map { request in
                RequestInfo(request: request.id, app: request.app.rawValue, purpose: try tx.app(request.app)?.purpose ?? "",
                            kind: request.kind.name, access: request.kind.access?.rawValue, createdAt: request.createdAt,
                            waiting: request.kind.pickOptions == nil ? requests.answers.waiting(for: request.id)
                                : requests.picks.isWaiting(for: request.id) ? 1 : 0,
                            pick: request.kind.pickOptions.map(PickInfo.init))
            }
        })
    }

    /// `report`: what each app opened and was handed since a time, each photo by its path now.
    func report(_ p: ReportParams) throws -> ReportResult {
        let app = try p.app.map { text throws(PhotoLibError) in try appID(text) }
        return try store.read { tx in
            if let app, try tx.app(app) == nil { throw PhotoLibError.unknownApp(app) }
            let albums = try tx.albumTree()
            var paths: [AssetID: String?] = [:]
            let entries = try tx.accessLog(app: app, since: p.since ?? 0).map { entry in
                if paths[entry.asset] == nil {
                    paths[entry.asset] = .some(try tx.asset(id: entry.asset).map { AssetInfo($0, albums: albums).path })
                }
                return ReportEntry(app: entry.app.rawValue, asset: entry.asset.rawValue, path: paths[entry.asset] ?? nil,
                                   how: entry.how.rawValue, at: entry.at, request: entry.request)
            }
            return ReportResult(retention: configuration.reportRetention, watchingOpens: configuration.reportWatchesOpens, entries: entries)
        }
    }

    /// `selection`: what an app was given by name, by album and by rule, and when what is timed ends.
    func selection(of app: AppID) throws -> SelectionResult {
        try store.read { tx in
            guard let record = try tx.app(app) else { throw PhotoLibError.unknownApp(app) }
            let albums = try tx.albumTree()
            let selected = try tx.selectedAssets(app)
            let ends = try tx.selectionEnds(app)
            let assetEnds = Dictionary(selected.compactMap { asset in ends.assets[asset.rowID].map { (asset.id.rawValue, $0) } },
                                       uniquingKeysWith: { first, _ in first })
            let albumEnds = Dictionary(ends.albums.compactMap { album, end in albums.path(of: album).map { ($0.escaped, end) } },
                                       uniquingKeysWith: { first, _ in first })
            return SelectionResult(
                app: app.rawValue, status: record.readWrite.rawValue,
                assets: selected.map { AssetInfo($0, albums: albums) },
                albums: try tx.selectedAlbums(app).compactMap { albums.path(of: $0)?.escaped }.sorted(),
                ends: assetEnds.isEmpty && albumEnds.isEmpty ? nil : GrantEnds(assets: assetEnds, albums: albumEnds),
                rules: try tx.selectedRules(app).map(RuleInfo.init))
        }
    }
}
