import Glibc
public import Logging
public import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem
import ServiceLifecycle

/// Starts photolibd and runs it until SIGTERM or SIGINT.
///
/// The order matters: directories and the mount are checked before anything
/// is written; the socket is up before the first scan so `status` can show
/// progress; the watcher's watches are in place before the scan starts, so
/// nothing that changes during the scan is missed.
public enum Daemon {
    public static let version = "0.1.0"

    public static func run(configuration: DaemonConfiguration, logger: Logger) async throws {
        ProcessIdentity.keepCreatedFilesPrivate()
        let made = try prepareDirectories(configuration)
        ProcessIdentity.raiseOpenFileLimit()
        do {
            guard try ProcessIdentity.lockExclusively(configuration.state + "/photolibd.lock") else {
                throw PhotoLibError.stateInUse(path: configuration.state)
            }
        } catch let error as SystemCallError {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.state, errno: error.errno)
        }
        let databasePath = configuration.databasePath
        let store = try Store(path: databasePath) { [logger] report in
            switch report {
            case .failing(let detail):
                logger.error("Cannot copy the database log back into \(databasePath): \(detail). It is tried again every second; the log grows meanwhile. Check the disk ('df', 'dmesg').")
            case .recovered(let rounds):
                logger.notice("The database log is copied back again, after \(rounds) failed rounds.")
            }
        }
        if let last = store.migrated.last {
            // An upgrade: say what changed in the database, once, as it happened.
            logger.notice("The database \(databasePath) was brought up to date from an older photolibd: \(store.migrated.count) steps, the last \"\(last)\".")
        }
        do {
            try store.write { try $0.recordMadeDirectories(made) }
        } catch {
            throw PhotoLibError.databaseFailed(path: configuration.databasePath, detail: "\(error)")
        }
        let board = StatusBoard()
        let queue = EventQueue()
        let hub = SubscriptionHub()
        let engine = try Engine(configuration: configuration, store: store, queue: queue, board: board, hub: hub, logger: logger,
                                clock: SystemClock(), ownerUID: ProcessIdentity.userID)
        await engine.dropStalePicks()
        // Grants that ended while the daemon was stopped end now, before any view is reconciled.
        let firstEnd = await engine.expireGrants()
        let watcher = try LibraryWatcher(libraryPath: configuration.library, helperExecutable: try HelperExecutables.path("photolibd-inotify"),
                                         queue: queue, board: board, logger: logger)
        let endpoints = EndpointSet(directory: configuration.endpointsDirectory, ownerUID: engine.ownerUID, logger: logger, units: EndpointUnits(logger: logger))
        let passed = SocketActivation.take()
        let router = RequestRouter(engine: engine, watcher: watcher, hub: hub, endpoints: endpoints, version: version)
        let server = try await SocketServer(path: configuration.socket, passed: passed.main, router: router,
                                      limits: ConnectionLimits(configuration.limits), logger: logger)
        do {
            await endpoints.start(listeners: try ListeningSockets<AppID> { app, fd in server.adopt(fd, endpointOf: app) },
                                  passed: passed.endpoints)
        } catch {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.endpointsDirectory, errno: error.errno)
        }
        do {
            try await router.syncEndpoints()
        } catch {
            logger.error("Cannot read the registered apps to open their endpoints: \(error). Their endpoints stay closed until 'photolibctl rescan' or the next start.")
        }
        logger.notice("photolibd \(version) starting: library \(configuration.library), views \(configuration.views), socket \(configuration.socket).")
        if let mode = board.snapshot.viewMode {
            logger.info("View entries are \(mode.form == .clones ? "reflink clones" : "hard links"): \(mode.reason).")
        }
        let notifier = SystemdNotifier()
        notifier.notify(["STATUS": "Scanning the library."])
        // Started together; stopped one by one in reverse order: the sockets
        // first, so no request arrives at a half-stopped daemon, the engine last.
        let group = ServiceGroup(
            services: [
                EngineService(engine: engine, queue: queue, store: store),
                WatchingService(watcher: watcher),
                InboxService(engine: engine),
                AccessReportService(engine: engine),
                PlaceService(engine: engine, finder: PlaceFinder(library: configuration.library, store: store, logger: logger)),
                GrantExpiryService(engine: engine, firstEnd: firstEnd),
                RoundService(engine: engine, intervalSeconds: configuration.verifyIntervalSeconds),
                WatchdogService(engine: engine, notifier: notifier),
                ListeningService(server: server, endpoints: endpoints),
            ],
            logger: logger)
        let stopper = Task {
            _ = await TerminationSignals.next()
            logger.notice("Stopping.")
            notifier.notify(["STOPPING": "1", "STATUS": "Stopping."])
            Self.stopWithin(Self.stopDeadline, logger: logger)
            await group.triggerGracefulShutdown()
        }
        defer { stopper.cancel() }
        try await group.run()
    }

    /// Seconds a stop may take before the daemon ends without waiting for the rest.
    static let stopDeadline: UInt32 = 10

    /// Ends the process `seconds` after a stop was asked for, if it has not ended by then: a call into a
    /// library whose server stopped answering never returns, and the thread that made it (the
    /// library's) would hold the stop for ever. Nothing is lost: what committed stands, what did not is
    /// found again by the next start's scan, as after a crash (the crash tests kill it anywhere).
    static func stopWithin(_ seconds: UInt32, logger: Logger) {
        do {
            try DetachedThread.start(name: "stop-deadline") {
                sleep(seconds)
                logger.error("Stopping took more than \(seconds) s (a call into the library or the views has not returned: is its server answering?); ending now. What was committed stands; the next start scans for the rest.")
                _exit(0)
            }
        } catch {
            logger.warning("Cannot start the stop's deadline thread (\(error)); the stop waits for whatever is under way.")
        }
    }

    /// Creates the state and views directories, and refuses configurations that would lose data or cannot link.
    ///
    /// Returns the directories it made above the views (the views directory
    /// itself excluded: it is 0711 for everyone), which app uids must be let through.
    static func prepareDirectories(_ configuration: DaemonConfiguration) throws -> [String] {
        try SocketPathRule.checkDaemon(socket: configuration.socket, endpointsDirectory: configuration.endpointsDirectory)
        let found: FileStatus?
        do {
            found = try PathInspection.lookUp(configuration.library)
        } catch {
            // EACCES on a parent, say: the library may be there; "missing" would send the person looking for it.
            throw PhotoLibError.libraryUnreachable(path: configuration.library, errno: error.errno)
        }
        if let found, found.kind != .directory {
            throw PhotoLibError.libraryNotDirectory(path: configuration.library)
        }
        if found == nil {
            if configuration.libraryIsDefault {
                // A refusal (EACCES, EROFS) is reported as itself, not as "no library".
                do {
                    try ProcessIdentity.makeDirectories(configuration.library, mode: 0o700)
                } catch {
                    throw PhotoLibError.cannotCreateDirectory(path: configuration.library, errno: error.errno)
                }
            }
            guard ProcessIdentity.isDirectory(configuration.library) else {
                throw PhotoLibError.libraryMissing(path: configuration.library)
            }
        }
        var made: [String] = []
        for (directory, access) in DaemonDirectories.plan(state: configuration.state, views: configuration.views,
                                                          inboxes: configuration.inboxes, endpoints: configuration.endpointsDirectory) {
            do {
                made += try ProcessIdentity.makeDirectories(directory, mode: DaemonDirectories.Access.privateToTheDaemon.mode)
                // A state directory made by someone else (systemd's StateDirectory=) keeps its mode.
                if access != .privateToTheDaemon { try ProcessIdentity.setMode(directory, access.mode) }
            } catch {
                throw PhotoLibError.cannotCreateDirectory(path: directory, errno: error.errno)
            }
        }
        try DaemonDirectories.checkApart(library: configuration.library, views: configuration.views,
                                         canonicalLibrary: ProcessIdentity.canonicalPath(configuration.library) ?? configuration.library,
                                         canonicalViews: ProcessIdentity.canonicalPath(configuration.views) ?? configuration.views)

        let libraryFD = try openDirectory(configuration.library)
        defer { libraryFD.close() }
        let viewsFD = try openDirectory(configuration.views)
        defer { viewsFD.close() }
        try claimViewsDirectory(viewsFD, path: configuration.views)
        let outcome: MountCheck.Outcome
        do {
            outcome = try MountCheck.probe(library: libraryFD, views: viewsFD)
        } catch {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.views, errno: error.errno)
        }
        // A library on a network or FUSE filesystem is served to apps by reference (`ViewEntryForm.references`):
        // links could not cross to the local disk anyway. Anywhere else, views on another mount are a mistake.
        if outcome == .otherMount {
            let filesystem: FilesystemKind
            do {
                filesystem = try FileClone.filesystem(of: libraryFD)
            } catch {
                throw PhotoLibError.systemCall(name: error.call, path: configuration.library, errno: error.errno)
            }
            if !filesystem.isRemote { throw PhotoLibError.viewsOnOtherMount(library: configuration.library, views: configuration.views) }
        }
        return DaemonDirectories.letThrough(made: made, reached: [configuration.views, configuration.inboxes])
    }

    /// A views directory must be empty or already ours: the daemon deletes what does not belong in it.
    private static func claimViewsDirectory(_ fd: FileDescriptor, path: String) throws {
        let marker = FileName(".photolibd-views")!
        do {
            if try Directory.status(of: marker, in: fd) != nil { return }
            if try !Directory.list(fd).isEmpty { throw PhotoLibError.viewsDirectoryNotOurs(path: path) }
            try Directory.createFile(marker, in: fd, mode: 0o600).close()
        } catch let error as SystemCallError {
            throw PhotoLibError.systemCall(name: error.call, path: path, errno: error.errno)
        }
    }

    private static func openDirectory(_ path: String) throws -> FileDescriptor {
        do {
            return try Directory.open(path: path)
        } catch {
            throw PhotoLibError.systemCall(name: "open", path: path, errno: error.errno)
        }
    }
}
