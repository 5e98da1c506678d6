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
    /// The counts `status` reports, while the store stands still.
    let statusCounts = StatusCounts()

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
            return reply(id, try authorizationStatus(of: app))
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
            return reply(id, try timeline())
        case .apps:
            return reply(id, try apps())
        case .installedApps:
            return reply(id, try await installedApps())
        case .addApp:
            return reply(id, try await addApp(try params(AddAppParams.self, line)))
        case .setApp:
            return reply(id, try await setApp(try params(SetAppParams.self, line)))
        case .removeApp:
            return reply(id, try await removeApp(try appID(try params(AppParams.self, line).app)))
        case .authorize:
            return reply(id, try await authorize(try params(AuthorizeParams.self, line), by: by))
        case .select, .deselect:
            return reply(id, try await editSelection(try params(SelectionEditParams.self, line), adding: method == .select, by: by))
        case .requestAuthorization:
            let p = try params(RequestAuthorizationParams.self, line)
            let kind = RequestKind.authorization(try accessLevel(p.access))
            return try await ask(kind, app: try targetApp(p.app, connection), wait: p.wait ?? true, id: id, connection: connection)
        case .requestReview:
            let p = try params(RequestReviewParams.self, line)
            return try await ask(.review, app: try targetApp(p.app, connection), wait: p.wait ?? true, id: id, connection: connection)
        case .pick:
            try await askPick(try params(PickParams.self, line), id: id, connection: connection)
            return nil
        case .requests:
            return reply(id, try pendingRequests(try params(RequestsParams.self, line)))
        case .answer:
            return reply(id, try await answer(try params(AnswerParams.self, line), by: by))
        case .report:
            return reply(id, try report(try params(ReportParams.self, line)))
        case .rescan:
            return reply(id, try await rescan())
        case .selection:
            return reply(id, try selection(of: try appID(try params(AppParams.self, line).app)))
        }
    }
}
