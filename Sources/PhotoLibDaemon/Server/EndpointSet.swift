import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Every app's endpoint: a Unix socket of its own, in the endpoints directory
/// under the same random name as its view (SPEC §4). A peer that connects
/// there is that app and nothing more (`PeerAdmission`), which is how a
/// sandboxed app running as the owner is told from the owner.
///
/// `sync` makes the set match the registered apps: it binds missing
/// endpoints, closes those of removed apps, and binds again one whose file was
/// deleted or replaced. Each socket is the owner's (0600); an app with a uid
/// of its own is let in by an ACL entry.
actor EndpointSet {
    private struct Endpoint {
        let app: AppRecord
        let path: String
        let inode: UInt64
    }

    let directory: String
    private let logger: Logger
    private let ownerUID = getuid()
    /// The thread that accepts on every endpoint (nil until `start`).
    private var listeners: ListeningSockets<AppID>?
    private var open: [AppID: Endpoint] = [:]

    init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// The endpoint path of an app (whether or not it is bound now).
    nonisolated func path(of app: AppRecord) -> String {
        directory + "/" + String(decoding: app.viewName.bytes, as: UTF8.self)
    }

    /// Starts accepting on endpoints with `listeners`, which hands each connection to the socket server.
    func start(listeners: ListeningSockets<AppID>) {
        self.listeners = listeners
    }

    /// Brings the endpoints in line with `apps` (at start and on rescan).
    func sync(_ apps: [AppRecord]) async {
        let wanted = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, endpoint) in open where wanted[id].map(path(of:)) != endpoint.path || wanted[id]?.uid != endpoint.app.uid {
            await close(id, endpoint)
        }
        for app in apps { await ensure(app) }
    }

    /// Removes an app's endpoint (the app was removed).
    func remove(_ id: AppID) async {
        if let endpoint = open[id] { await close(id, endpoint) }
    }

    /// Binds an app's endpoint unless it is bound and its file is still the one bound.
    func ensure(_ app: AppRecord) async {
        guard let listeners else { return }
        let path = path(of: app)
        if let endpoint = open[app.id] {
            if endpoint.path == path, endpoint.app.uid == app.uid {
                do {
                    if try SocketFile.inode(at: path) == endpoint.inode { return }
                } catch {
                    logger.warning("Cannot check the endpoint of \(app.id) at \(path): \(error); binding it again.")
                }
                logger.notice("The endpoint of \(app.id) at \(path) was removed or replaced; binding it again.")
            }
            await close(app.id, endpoint)
        }
        do {
            try SocketFile.removeStale(path)
            try listeners.add(app.id, path: path)
            try SocketFile.restrict(path, alsoTo: app.uid != ownerUID && app.uid != 0 ? app.uid : nil)
            guard let inode = try SocketFile.inode(at: path) else { throw SystemCallError("lstat", errno: ENOENT) }
            open[app.id] = Endpoint(app: app, path: path, inode: inode)
        } catch {
            logger.warning("Cannot open the endpoint of \(app.id) at \(path): \(error). The app can still use its view; run 'photolibctl rescan' to try again.")
        }
    }

    /// Binds again any endpoint whose file was deleted or replaced: one `lstat`
    /// per endpoint and no database read, so it can run every few seconds.
    func repair() async {
        for endpoint in open.values { await ensure(endpoint.app) }
    }

    /// Closes every endpoint and removes its file (at shutdown).
    func closeAll() async {
        for (id, endpoint) in open { await close(id, endpoint) }
        listeners?.stop()
    }

    private func close(_ id: AppID, _ endpoint: Endpoint) async {
        open[id] = nil
        listeners?.remove(id)
        SocketFile.remove(endpoint.path, ifInode: endpoint.inode)
    }
}
