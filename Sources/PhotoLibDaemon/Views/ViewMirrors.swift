import Glibc
import Logging
import PhotoLibCore
import PhotoLibSystem

/// The Pictures folders served read-only through FUSE (`PicturesFolderForm.mirror`): each limited
/// Flatpak app's form, decided once a run, and the photolibd-viewfs server that serves each mirror.
///
/// The view itself stays a directory of links (or clones) under the views, which only the owner
/// can enter; its server mirrors it onto the app's Pictures folder, and takes what the app saves
/// there into its inbox. A server ends with this process (its channel closes), and so does its mount.
final class ViewMirrors {
    /// Whether FUSE can be used at all, probed once at start (`FuseAvailability`).
    let support: FuseSupport
    /// Who mounts a view: this process's child, or the socket unit's instances.
    private let route: FuseAvailability.Route?
    private let logger: Logger
    private let board: StatusBoard
    private var forms: [AppID: PicturesFolderForm] = [:]
    private var servers: [AppID: ViewFileSystem] = [:]
    private var stopped = false
    /// The views directory's tag, which names every mount (`ViewMountName`).
    private let tag: String
    /// Set where the views are references to a library on a network filesystem: no clone can reach
    /// the library from a Pictures folder there (it would be a copy), so a folder that clones is
    /// served through FUSE all the same.
    var libraryOutOfReach: String?

    /// The views directory, where an app that reads its view itself has it mounted (views of references).
    private let views: String

    init(logger: Logger, board: StatusBoard, probed: (FuseSupport, FuseAvailability.Route?), views: String) {
        tag = ViewMountName.tag(ofViews: views)
        self.views = views
        self.logger = logger
        self.board = board
        (support, route) = probed
        board.update { $0.fuse = support }
        if case .unavailable(let reason) = support {
            logger.info("Views served through FUSE cannot be used here: \(reason). A limited Flatpak app's Pictures folder holds clones where it can, copies otherwise.")
        }
    }

    /// The form of an app's Pictures folder, decided the first time it is asked for in this run:
    /// `parent` is the folder's parent (`~/.var/app/APP`), on the same filesystem, never the folder
    /// itself, which may be this run's mount by then.
    func form(of app: AppID, parent: () throws -> FileDescriptor) -> PicturesFolderForm {
        if let known = forms[app] { return known }
        let form: PicturesFolderForm
        do {
            let directory = try parent()
            defer { directory.close() }
            let clones = try libraryOutOfReach.map { CloneSupport.unsupported(reason: $0) } ?? FileClone.probe(in: directory)
            form = PicturesFolderForm.decide(clones: clones, fuse: support)
        } catch {
            // An error is not "cannot clone": copies are what is certain to work, and the log says why.
            form = .copies(reason: "its folder could not be probed (\(error))")
        }
        decided(app, form)
        logger.info("The Pictures folder of \(app) holds its photos as \(form.name)\(Self.because(form)).")
        return form
    }

    /// Where the views are references, the form of the view of an app that reads it itself (not a
    /// Flatpak app's Pictures folder): served through FUSE onto its view directory, or copies where
    /// that cannot be (FUSE unusable; an app under a uid of its own where `allow_other` is not
    /// allowed, which only root can change). Decided the first time it is asked for in this run.
    func referenceViewForm(of app: AppID, ownUID: UInt32?) -> PicturesFolderForm {
        if let known = forms[app] { return known }
        let form: PicturesFolderForm
        if case .unavailable(let reason) = support {
            form = .copies(reason: "FUSE cannot be used here (\(reason))")
        } else if ownUID != nil {
            do {
                form = try FuseAvailability.allowsOther() ? .mirror : .copies(
                    reason: "it runs under a uid of its own, which reaches a FUSE view only when it is mounted allow_other, and /etc/fuse.conf does not set user_allow_other")
            } catch {
                form = .copies(reason: "it runs under a uid of its own, which reaches a FUSE view only when it is mounted allow_other, and whether /etc/fuse.conf allows that cannot be told (\(error))")
            }
        } else {
            form = .mirror
        }
        decided(app, form)
        logger.info("The view of \(app) holds its photos as \(form.name)\(Self.because(form)).")
        return form
    }

    /// Where this app's form is known to be a mirror, and what it is otherwise (for `status`).
    func knownForm(of app: AppID) -> PicturesFolderForm? { forms[app] }

    /// Whether the app's mirror is mounted and its server still serving.
    func isMounted(_ app: AppID) -> Bool {
        guard let server = servers[app] else { return false }
        if server.hasEnded() {
            logger.warning("The FUSE server of \(app)'s Pictures folder has ended (\(server.stop(grace: 0).map { "\($0)" } ?? "its end unknown")); mounting it again.")
            servers[app] = nil
            return false
        }
        return true
    }

    /// Mounts the app's mirror. A mount that fails makes the app's form copies for the rest of the
    /// run (the reason in the log and in `status`), so its folder still holds what it should.
    /// `library`: where the view's references point, when its entries are references (`ViewEntryForm.references`).
    func mount(_ app: AppID, source: String, mountPoint: String, inbox: String?, library: String? = nil, reader: UInt32? = nil) throws(PhotoLibError) {
        guard !stopped else { throw .stopping }
        do throws(SystemCallError) {
            switch route {
            case .child(let executable):
                servers[app] = try ViewFileSystem(executable: executable, tag: tag, source: source, mountPoint: mountPoint, inbox: inbox,
                                                  library: library, reader: reader)
            case .socketUnit(let socket):
                // The unit's instance runs outside this sandbox: it is handed the directories, never their paths.
                let directory = try Directory.open(path: source)
                defer { directory.close() }
                let inboxDirectory = try inbox.map { (path) throws(SystemCallError) in try Directory.open(path: path) }
                defer { inboxDirectory?.close() }
                let libraryDirectory = try library.map { (path) throws(SystemCallError) in try Directory.open(path: path) }
                defer { libraryDirectory?.close() }
                servers[app] = try ViewFileSystem(socket: socket, tag: tag, source: directory, mountPoint: mountPoint, inbox: inboxDirectory,
                                                  library: libraryDirectory, reader: reader)
            case nil:
                throw SystemCallError("photolibd-viewfs (FUSE cannot be used here)", errno: ENOTSUP)
            }
            logger.notice("The Pictures folder of \(app) is its view through FUSE: nothing copied, nothing in it writable\(inbox == nil ? "" : ", and what it saves there taken in through its inbox").")
        } catch {
            decided(app, .copies(reason: "mounting its FUSE view failed (\(error))"))
            logger.error("Cannot mount the view of \(app) on \(mountPoint) through FUSE: \(error). Its Pictures folder holds copies instead until the next start.")
            throw .systemCall(name: error.call, path: mountPoint, errno: error.errno)
        }
    }

    /// Unmounts the app's mirror, if it has one (the app removed, or no longer limited), and waits
    /// (at most 3 s) until the kernel no longer lists it: what follows may look into the folder.
    func unmount(_ app: AppID) {
        guard let server = servers.removeValue(forKey: app) else { return }
        let ending = server.stop()
        // The server's own unmounter detaches it once the server has ended; a moment later, it is done here instead.
        let deadline = ContinuousClock.now + .seconds(3)
        while true {
            let mounted: Bool
            do {
                mounted = try FuseMounts.viewMounts().contains { $0.mountPoint == server.mountPoint }
            } catch {
                logger.warning("Cannot read the mount table to see the FUSE view of \(app) gone from \(server.mountPoint): \(error). Its server has ended, and its unmounter detaches it.")
                break
            }
            guard mounted else { break }
            guard ContinuousClock.now < deadline else {
                do {
                    try FuseMounts.unmountLazily(server.mountPoint)
                } catch {
                    logger.error("The FUSE view of \(app) is still mounted on \(server.mountPoint) and cannot be unmounted: \(error). Run 'fusermount3 -u -z \(server.mountPoint)'.")
                }
                break
            }
            usleep(20_000)
        }
        logger.info("Unmounted the FUSE view of \(app) from \(server.mountPoint) (its server \(ending.map { "\($0)" } ?? "could not be waited for")).")
    }

    /// Forgets an app's form (removed): a new app by that name is decided afresh.
    func forget(_ app: AppID) {
        unmount(app)
        forms[app] = nil
        board.update { $0.picturesForms[app] = nil }
    }

    /// Unmounts every mirror, and mounts none after (the daemon is stopping).
    func stopAll() {
        stopped = true
        for app in Array(servers.keys) { unmount(app) }
    }

    /// Unmounts the view mounts a killed daemon of these views left under `home`'s Flatpak folders and in the views,
    /// before anything looks into them (a dead server's mount answers ENOTCONN to every look);
    /// another daemon's, serving other apps from other views in the same home, are left alone.
    func recoverStale(home: String) {
        // The socket unit's server unmounts what a killed one left before it mounts (this process may not).
        guard case .child = route else { return }
        let mounts: [MountInfoLine]
        do {
            mounts = try FuseMounts.viewMounts()
        } catch {
            logger.warning("Cannot read the mount table to find FUSE views a stopped photolibd left: \(error).")
            return
        }
        var stale = mounts.filter {
            ($0.mountPoint.hasPrefix(home + "/.var/app/") || $0.mountPoint.hasPrefix(views + "/")) && ViewMountName.isOurs(source: $0.source, tag: tag)
        }
        // A daemon killed alone: each of its servers saw its end, and its unmounter takes its mount
        // down a moment later. Waited for (2 s at most), so that no such unmounter, late, takes down
        // this run's mount instead; what is left after was left by servers killed with their unmounters.
        let deadline = ContinuousClock.now + .seconds(2)
        while !stale.isEmpty, ContinuousClock.now < deadline {
            usleep(20_000)
            // The table read a moment ago and cannot be now: no longer waited for, what was stale is detached.
            guard let now = try? FuseMounts.viewMounts() else { break }
            stale = stale.filter { old in now.contains { $0.mountPoint == old.mountPoint && $0.source == old.source } }
        }
        for mount in stale {
            do {
                try FuseMounts.unmountLazily(mount.mountPoint)
                logger.notice("Unmounted a FUSE view left by a photolibd that did not stop cleanly: \(mount.mountPoint).")
            } catch {
                logger.error("Cannot unmount the FUSE view left at \(mount.mountPoint): \(error). Run 'fusermount3 -u -z \(mount.mountPoint)'.")
            }
        }
    }

    private func decided(_ app: AppID, _ form: PicturesFolderForm) {
        forms[app] = form
        board.update { $0.picturesForms[app] = form }
    }

    private static func because(_ form: PicturesFolderForm) -> String {
        if case .copies(let reason) = form { return ": \(reason)" }
        return ""
    }
}
