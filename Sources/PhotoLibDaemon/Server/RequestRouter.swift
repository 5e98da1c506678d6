import PhotoLibConfiguration
import Glibc
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// Turns one request line into one reply line.
///
/// Every failure becomes an error reply with a code and a sentence; nothing
/// a client sends can stop the daemon.
struct RequestRouter: Sendable {
    /// Where changes go: the engine's (`EngineChanges`), or a test's fake.
    let changes: any LibraryChanges
    /// Who waits for the person: a request's answer, a pick.
    let requests: RequestDesk
    /// What replies read, off the engine.
    let store: Store
    let board: StatusBoard
    let configuration: DaemonConfiguration
    /// The library's owner: an admin without being an app.
    let ownerUID: UInt32
    /// The time of day, for grant ends.
    let clock: any WallClock
    /// Asked to watch the library afresh at a rescan.
    let watcher: any LibraryRewatching
    let hub: SubscriptionHub
    /// The open connections, to close those of an app that is removed.
    let connections = ConnectionRegistry()
    /// The apps' own sockets, opened and closed with the apps.
    let endpoints: any AppEndpoints
    let version: String
    let coder = MessageCoder()
    /// The page's last listing, while the library stands still.
    let listings = ListingCache()

    init(changes: any LibraryChanges, requests: RequestDesk, store: Store, board: StatusBoard, configuration: DaemonConfiguration,
         ownerUID: UInt32, clock: any WallClock, watcher: any LibraryRewatching, hub: SubscriptionHub, endpoints: any AppEndpoints,
         version: String) {
        self.changes = changes
        self.requests = requests
        self.store = store
        self.board = board
        self.configuration = configuration
        self.ownerUID = ownerUID
        self.clock = clock
        self.endpoints = endpoints
        self.watcher = watcher
        self.hub = hub
        self.version = version
    }

    /// The daemon's router: changes go to `engine`, replies read what it reads.
    init(engine: Engine, watcher: any LibraryRewatching, hub: SubscriptionHub, endpoints: any AppEndpoints, version: String) {
        self.init(changes: EngineChanges(engine: engine), requests: engine.requests, store: engine.store, board: engine.board,
                  configuration: engine.configuration, ownerUID: engine.ownerUID, clock: engine.clock, watcher: watcher, hub: hub,
                  endpoints: endpoints, version: version)
    }

    /// Decides a peer's role (`PeerAdmission`) from the socket it came through,
    /// its uid and its sandbox; a peer that is nobody is refused.
    func role(listener: PeerAdmission.Listener, uid: UInt32, sandbox: SandboxIdentity) -> Result<PeerRole, PhotoLibError> {
        var apps: [AppID] = []
        if listener == .main, uid != 0, uid != ownerUID {
            do {
                apps = try store.read { try $0.apps(uid: uid) }.map(\.id)
            } catch {
                // Not "no such app": the peer is told the daemon cannot tell now.
                return .failure(.databaseFailed(path: store.path, detail: "\(error)"))
            }
        }
        if case .endpoint(let app) = listener {
            // The endpoint of an app removed a moment ago may still accept.
            do {
                guard try store.read({ try $0.app(app) }) != nil else { return .failure(.unknownApp(app)) }
            } catch {
                return .failure(.databaseFailed(path: store.path, detail: "\(error)"))
            }
        }
        return PeerAdmission.decide(listener: listener, uid: uid, daemonUID: ownerUID, appsForUID: apps, sandbox: sandbox)
    }

    func greeting(for role: PeerRole) -> [UInt8] {
        switch role {
        case .admin: encode(Greeting(role: ActorRole.admin.rawValue, apps: nil))
        case .app(let apps): encode(Greeting(role: ActorRole.app.rawValue, apps: apps.map(\.rawValue)))
        }
    }

    func errorLine(_ error: PhotoLibError, id: RequestID? = nil) -> [UInt8] {
        encode(ErrorReply(id: id, error: error))
    }

    /// The reply line, or nil when the reply was already sent (a subscribe, in order with its events).
    func handle(_ line: [UInt8], connection: Connection) async -> [UInt8]? {
        let role = connection.role
        let head: RequestHead
        do {
            head = try coder.decode(RequestHead.self, from: line)
        } catch {
            return errorLine(.malformedRequest(MessageCoder.describe(error)))
        }
        do {
            guard let method = Method(rawValue: head.method) else { throw PhotoLibError.unknownMethod(head.method) }
            if case .app = role, method.isAdminOnly { throw PhotoLibError.adminOnly(method: method.rawValue) }
            guard let id = head.id, head.progress == true, method.mayTakeLong else {
                return try await dispatch(method, line: line, id: head.id, connection: connection)
            }
            return try await withProgressReported(method == .rescan ? scanProgress() : WorkProgress(), of: id, to: connection) {
                try await dispatch(method, line: line, id: id, connection: connection)
            }
        } catch let error as PhotoLibError {
            return errorLine(error, id: head.id)
        } catch is StopRequested {
            return errorLine(.stopping, id: head.id)
        } catch let error as SystemCallError {
            // A view's or the library's file system refused (the store's failures are not SystemCallErrors):
            // never told as a damaged database, whose advice is to move the database aside.
            return errorLine(.systemCall(name: error.call, path: "the library or a view (photolibd's log names the file)", errno: error.errno), id: head.id)
        } catch {
            return errorLine(.databaseFailed(path: store.path, detail: "\(error)"), id: head.id)
        }
    }

    private func dispatch(_ method: Method, line: [UInt8], id: RequestID?, connection: Connection) async throws -> [UInt8]? {
        let by = EventActor(uid: connection.uid, role: connection.role == .admin ? .admin : .app)
        switch method {
        case .authorizationStatus:
            let app = try targetApp(try params(OptionalAppParams.self, line).app, connection)
            return reply(id, try store.read { tx in
                guard let record = try tx.app(app) else { throw PhotoLibError.unknownApp(app) }
                return AuthorizationStatusResult(app: app.rawValue, readWrite: record.readWrite.rawValue, addOnly: record.addOnly.rawValue)
            })
        case .list:
            let app = try targetApp(try params(OptionalAppParams.self, line).app, connection)
            return reply(id, try list(app))
        case .subscribe:
            try subscribe(try params(SubscribeParams.self, line), id: id, connection: connection)
            return nil
        case .unsubscribe:
            connection.replaceSubscription(nil)
            return reply(id, EmptyResult())
        case .status:
            return reply(id, try status())
        case .assets:
            return reply(id, try assets(try params(AssetsParams.self, line)))
        case .albums:
            return reply(id, try albums(try params(AlbumsParams.self, line)))
        case .timeline:
            let dated = try store.read { try $0.datedAssets() }
            let months = MonthTally.tally(dated, monthOf: LocalTime.month(containing:))
            return reply(id, TimelineResult(months: months.map { MonthSummary(month: $0.month, assets: $0.assets) }))
        case .apps:
            return reply(id, AppsResult(apps: try store.read { tx in try tx.apps().map { try appInfo($0, tx) } }))
        case .installedApps:
            let apps = try await changes.installedApps()
            return reply(id, InstalledAppsResult(apps: apps.map { InstalledAppInfo($0.app, registered: $0.registered, running: $0.running) }))
        case .addApp:
            let p = try params(AddAppParams.self, line)
            let app = try appID(p.app)
            let location = try locationPolicy(p.location) ?? .newAppDefault
            let record = try await changes.addApp(app, uid: p.uid, purpose: p.purpose ?? "", location: location, flatpak: p.flatpak ?? false)
            await endpoints.ensure(record)
            return reply(id, try store.read { try appInfo(record, $0) })
        case .setApp:
            let p = try params(SetAppParams.self, line)
            let app = try appID(p.app)
            var record: AppRecord?
            if let location = try locationPolicy(p.location) {
                record = try await changes.setLocation(app, location)
            }
            if let captions = p.captions {
                guard let shared = SharingChoice.captionsSetting(captions) else {
                    throw PhotoLibError.invalidParameter(name: "captions", reason: "'\(captions)' is not one of shared, removed")
                }
                record = try await changes.setCaptions(app, shared: shared)
            }
            guard let shown = try record ?? store.read({ try $0.app(app) }) else { throw PhotoLibError.unknownApp(app) }
            return reply(id, try store.read { try appInfo(shown, $0) })
        case .removeApp:
            let app = try appID(try params(AppParams.self, line).app)
            try await changes.removeApp(app)
            await endpoints.remove(app)
            // Its connections lose their role now, not when they next reconnect.
            connections.closeConnections(of: app)
            return reply(id, EmptyResult())
        case .authorize:
            let p = try params(AuthorizeParams.self, line)
            guard let status = AuthorizationStatus(spelling: p.status) else { throw PhotoLibError.invalidStatus(p.status) }
            var level = AccessLevel.readWrite
            if let text = p.access {
                guard let parsed = AccessLevel(spelling: text) else { throw PhotoLibError.invalidAccessLevel(text) }
                level = parsed
            }
            let endsAt = try GrantEnd.expiry(now: clock.now(), forSeconds: p.forSeconds, until: p.until)
            let app = try appID(p.app)
            // An installed Flatpak app is chosen by its ID, as the person sees it listed: registered on the way.
            if try store.read({ try $0.app(app) }) == nil, try changes.isInstalledFlatpak(app) {
                await endpoints.ensure(try await changes.addApp(app, uid: 0, purpose: "", location: .newAppDefault, flatpak: true))
            }
            let record = try await changes.authorize(app, access: level, status: status, by: by, endsAt: endsAt, confirmed: p.confirm ?? false)
            return reply(id, try store.read { try appInfo(record, $0) })
        case .select, .deselect:
            let p = try params(SelectionEditParams.self, line)
            if p.takenFrom != nil || p.takenTo != nil || p.rules != nil || p.allRules == true {
                return reply(id, try await editRules(p, adding: method == .select, by: by))
            }
            let endsAt = try GrantEnd.expiry(now: clock.now(), forSeconds: p.forSeconds, until: p.until)
            if method == .deselect, endsAt != nil {
                throw PhotoLibError.invalidParameter(name: "for", reason: "a deselection takes effect at once; give --for or --until to select")
            }
            let (app, adding) = (try appID(p.app), method == .select)
            let named = try NamedItems(assets: p.assets ?? [], albums: p.albums ?? [], library: configuration.library)
            let changed = try await changes.editSelection(app, named, adding: adding, by: by, endsAt: endsAt)
            return reply(id, SelectionEditResult(
                assets: changed.assets.map(\.rawValue), albums: changed.albums.map(\.escaped),
                refused: changed.refused.isEmpty ? nil : try store.read { tx in
                    let albums = try tx.albumTree()
                    return changed.refused.map { AssetInfo($0, albums: albums) }
                }))
        case .requestAuthorization:
            let p = try params(RequestAuthorizationParams.self, line)
            var level = AccessLevel.readWrite
            if let text = p.access {
                guard let parsed = AccessLevel(spelling: text) else { throw PhotoLibError.invalidAccessLevel(text) }
                level = parsed
            }
            return try await ask(.authorization(level), app: try targetApp(p.app, connection), wait: p.wait ?? true, id: id, connection: connection)
        case .requestReview:
            let p = try params(RequestReviewParams.self, line)
            return try await ask(.review, app: try targetApp(p.app, connection), wait: p.wait ?? true, id: id, connection: connection)
        case .pick:
            let p = try params(PickParams.self, line)
            let options = try PickOptions.parse(types: p.types, limit: p.limit, ordered: p.ordered, accepts: p.accepts)
            if p.notify == false, connection.role != .admin {
                throw PhotoLibError.invalidParameter(name: "notify", reason: "only the library's owner may ask for a pick without a notification")
            }
            let (app, notify, waiter) = (try targetApp(p.app, connection), p.notify ?? true, pickWaiter(id: id, connection: connection))
            try await changes.askPick(app, options: options, notify: notify, waiter: waiter)
            return nil
        case .requests:
            let p = try params(RequestsParams.self, line)
            let app = try p.app.map { text throws(PhotoLibError) in try appID(text) }
            return reply(id, RequestsResult(requests: try store.read { tx in
                if let app, try tx.app(app) == nil { throw PhotoLibError.unknownApp(app) }
                return try tx.requests(app: app).map { request in
                    RequestInfo(request: request.id, app: request.app.rawValue, purpose: try tx.app(request.app)?.purpose ?? "",
                                kind: request.kind.name, access: request.kind.access?.rawValue, createdAt: request.createdAt,
                                waiting: request.kind.pickOptions == nil ? requests.answers.waiting(for: request.id)
                                    : requests.picks.isWaiting(for: request.id) ? 1 : 0,
                                pick: request.kind.pickOptions.map(PickInfo.init))
                }
            }))
        case .answer:
            let p = try params(AnswerParams.self, line)
            guard let answer = RequestAnswer(rawValue: p.answer) else { throw PhotoLibError.invalidAnswer(p.answer) }
            if answer == .pick {
                if !(p.albums ?? []).isEmpty {
                    throw PhotoLibError.invalidParameter(name: "albums", reason: "a pick hands over files, so it is answered with assets, not albums")
                }
                let named = try NamedItems(assets: p.assets ?? [], library: configuration.library)
                return reply(id, try await changes.answerPick(p.request, named, location: p.location, captions: p.captions))
            }
            let reason = try CancelReason.parse(p.reason, answer: answer)
            let (request, named) = (p.request, try NamedItems(assets: p.assets ?? [], albums: p.albums ?? [], library: configuration.library))
            return reply(id, try await changes.answer(request, with: answer, named, by: by, reason: reason))
        case .report:
            let p = try params(ReportParams.self, line)
            let app = try p.app.map { text throws(PhotoLibError) in try appID(text) }
            return reply(id, try store.read { tx in
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
            })
        case .rescan:
            let started = ContinuousClock.now
            try await changes.rescan { [watcher] in watcher.requestRewatch() }
            await syncEndpoints()
            let snapshot = board.snapshot
            return reply(id, RescanResult(
                assets: snapshot.scannedFiles, directories: snapshot.scannedDirectories, failedWatches: snapshot.failedWatches,
                seconds: (ContinuousClock.now - started) / .seconds(1)))
        case .selection:
            let app = try appID(try params(AppParams.self, line).app)
            return reply(id, try store.read { tx in
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
            })
        }
    }

    /// An app's request: the reply now when it is decided (or the app does not
    /// wait), else nil, and the reply is written when the person answers.
    private func ask(_ kind: RequestKind, app: AppID, wait: Bool, id: RequestID?, connection: Connection) async throws -> [UInt8]? {
        let channel = connection.channel
        let waiter = wait ? RequestAnswers.Waiter(connection: ObjectIdentifier(connection)) { [self] outcome in
            channel.writeAndFlush(ByteBuffer(bytes: reply(id, outcome)), promise: nil)
        } : nil
        let outcome = try await changes.ask(app, kind: kind, waiter: waiter)
        if wait, outcome.requestState == .pending { return nil }
        return reply(id, outcome)
    }

    /// Where a pick's answer goes: the reply line, with the chosen files'
    /// descriptors passed along it (`DescriptorSender`).
    private func pickWaiter(id: RequestID?, connection: Connection) -> PickWaiter {
        PickWaiter(
            connection: ObjectIdentifier(connection), peerUID: connection.uid, isOpen: { connection.isOpen },
            deliver: { [self] result, files in
                let channel = connection.channel
                try await connection.sender.send(line: reply(id, result), descriptors: files, on: channel.eventLoop).get()
            })
    }
}
