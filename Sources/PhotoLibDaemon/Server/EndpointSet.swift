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
/// of its own is let in by an ACL entry. Under a systemd user manager an
/// endpoint may come from systemd instead (`EndpointUnits`): its file is then
/// systemd's, and stays when the daemon stops.
actor EndpointSet {
    private struct Endpoint {
        let app: AppRecord
        let path: String
        let inode: UInt64
        /// Passed by systemd (its socket unit listens there when the daemon is stopped).
        let heldBySystemd: Bool
    }

    let directory: String
    private let logger: Logger
    private let ownerUID: UInt32
    /// The thread that accepts on every endpoint (nil until `start`).
    private var listeners: ListeningSockets<AppID>?
    private var open: [AppID: Endpoint] = [:]
    /// Endpoints systemd passed at start, by view name, not yet matched to an app.
    private var passed: [String: Int32] = [:]
    private let units: EndpointUnits

    init(directory: String, ownerUID: UInt32, logger: Logger, units: EndpointUnits) {
        self.ownerUID = ownerUID
        self.directory = directory
        self.logger = logger
        self.units = units
    }

    /// The endpoint path of an app (whether or not it is bound now).
    nonisolated func path(of app: AppRecord) -> String {
        app.path(under: directory)
    }

    /// Starts accepting on endpoints with `listeners`, which hands each
    /// connection to the socket server; `passed` are endpoints systemd held
    /// while the daemon was stopped, by view name.
    func start(listeners: ListeningSockets<AppID>, passed: [String: Int32]) {
        self.listeners = listeners
        self.passed = passed
    }

    /// Brings the endpoints in line with `apps` (at start and on rescan).
    func sync(_ apps: [AppRecord]) async {
        let wanted = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, endpoint) in open where wanted[id].map(path(of:)) != endpoint.path || wanted[id]?.uid != endpoint.app.uid {
            await close(id, endpoint)
        }
        for app in apps { await ensure(app) }
        // Units of apps removed while the daemon was stopped: nobody's endpoints.
        if !passed.isEmpty {
            let orphans = passed
            passed = [:]
            for fd in orphans.values { FileDescriptor(rawValue: fd).close() }
            units.retire(orphans.keys.sorted().compactMap { FileName($0) })
        }
    }

    /// Removes an app's endpoint (the app was removed), and its socket unit if it has one.
    func remove(_ id: AppID) async {
        if let endpoint = open[id] {
            await close(id, endpoint)
            units.retire([endpoint.app.viewName])
        }
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
            let appUID = app.ownUID(ownerUID: ownerUID)
            if let fd = passed.removeValue(forKey: String(decoding: app.viewName.bytes, as: UTF8.self)) {
                // systemd's socket, already listening there: connections queued
                // while the daemon started are accepted now.
                if let inode = try SocketFile.inode(at: path) {
                    try listeners.adopt(app.id, descriptor: fd)
                    try SocketFile.restrict(path, alsoTo: appUID)
                    open[app.id] = Endpoint(app: app, path: path, inode: inode, heldBySystemd: true)
                    return
                }
                FileDescriptor(rawValue: fd).close()  // its file is gone: bind a new one below
            }
            try SocketFile.removeStale(path)
            try listeners.add(app.id, path: path)
            try SocketFile.restrict(path, alsoTo: appUID)
            guard let inode = try SocketFile.inode(at: path) else { throw SystemCallError("lstat", errno: ENOENT) }
            open[app.id] = Endpoint(app: app, path: path, inode: inode, heldBySystemd: false)
        } catch {
            logger.warning("Cannot open the endpoint of \(app.id) at \(path): \(error). The app can still use its view; run 'photolibctl rescan' to try again.")
        }
    }

    /// Binds again any endpoint whose file was deleted or replaced: one `lstat`
    /// per endpoint and no database read, so it can run every few seconds.
    func repair() async {
        for endpoint in open.values { await ensure(endpoint.app) }
    }

    /// Closes every endpoint (at shutdown). The daemon's own are removed and,
    /// under a systemd user manager, handed to socket units that listen until
    /// the next start; systemd's stay as they are.
    func closeAll() async {
        var own: [FileName] = []
        for (id, endpoint) in open {
            if !endpoint.heldBySystemd { own.append(endpoint.app.viewName) }
            await close(id, endpoint)
        }
        listeners?.stop()
        units.handOver(own)
    }

    private func close(_ id: AppID, _ endpoint: Endpoint) async {
        open[id] = nil
        listeners?.remove(id)
        // systemd's socket file stays: its unit still listens there.
        guard !endpoint.heldBySystemd else { return }
        do {
            try SocketFile.remove(endpoint.path, ifInode: endpoint.inode)
        } catch {
            // Nothing listens there any more, so an app connecting is refused; the file itself stays.
            logger.warning("Cannot remove the endpoint \(endpoint.path) of \(id): \(error); remove it by hand if it stays in the way.")
        }
    }
}
