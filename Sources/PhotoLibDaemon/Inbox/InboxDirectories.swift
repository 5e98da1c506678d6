import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Every app's inbox: `<inboxes>/<view name>/`, with `rejected/` inside.
///
/// The directory is the owner's, 0700. An app with a uid of its own gets
/// `rwx` on it (and on `rejected/`) through an ACL, whose default entry lets
/// the owner read the files the app writes; a sandboxed app on the owner's
/// uid is given it by a read-write bind (`photolibctl app sandbox`). Named
/// like the view, so no app can find another's. Every app has one, whatever
/// its status, so a sandbox's bind never points at nothing; a file written
/// without the right to add is refused with that reason.
final class InboxDirectories {
    let path: String
    private let logger: Logger
    private let ownerUID: UInt32
    private var open: [AppID: (app: AppRecord, directory: FileDescriptor)] = [:]
    /// The thread that watches every inbox (and each Flatpak app's Pictures folder) for files apps leave.
    let watcher: InboxWatcher

    init(path: String, ownerUID: UInt32, watcher: InboxWatcher, logger: Logger) {
        self.watcher = watcher
        self.ownerUID = ownerUID
        self.path = path
        self.logger = logger
    }

    deinit {
        for entry in open.values { entry.directory.close() }
    }

    func path(of app: AppRecord) -> String {
        app.path(under: path)
    }

    /// The open inbox of an app, if it has one now.
    func directory(of app: AppID) -> FileDescriptor? { open[app]?.directory }

    func record(of app: AppID) -> AppRecord? { open[app]?.app }

    /// Makes the inboxes match `apps`: creates missing ones, applies ACLs, and
    /// removes those of apps that are gone. Returns the inboxes opened anew (to watch).
    func sync(_ apps: [AppRecord]) -> [(AppID, FileDescriptor)] {
        let wanted = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, entry) in open where wanted[id]?.viewName != entry.app.viewName {
            entry.directory.close()
            open[id] = nil
        }
        var opened: [(AppID, FileDescriptor)] = []
        let root: FileDescriptor
        do {
            root = try Directory.open(path: path)
        } catch {
            logger.error("Cannot open the inboxes directory \(path): \(error). Apps cannot add photos until it is back.")
            return []
        }
        defer { root.close() }
        for app in apps {
            do {
                let directory = try prepare(app, in: root)
                if let known = open[app.id] {
                    directory.close()
                    open[app.id] = (app, known.directory)
                } else {
                    open[app.id] = (app, directory)
                    opened.append((app.id, directory))
                }
            } catch {
                logger.error("Cannot prepare the inbox of \(app.id) at \(path(of: app)): \(error). It cannot add photos until this is fixed.")
            }
        }
        // Inboxes of apps removed (also while the daemon was stopped) go with them.
        let names = Set(apps.map(\.viewName))
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.list(root)
        } catch {
            logger.warning("Cannot list \(path) to remove the inboxes of removed apps: \(error). They are looked at again at the next start.")
            return opened
        }
        for entry in entries where !entry.name.isHidden && !names.contains(entry.name) {
            guard ViewName.isViewName(entry.name) else { continue }  // not photolibd's: leave it
            logger.info("Removing the inbox of an app that is no longer registered: \(entry.name)")
            do {
                try Directory.removeTree(entry.name, in: root)
            } catch {
                logger.warning("Cannot remove the inbox \(path)/\(entry.name) of a removed app: \(error).")
            }
        }
        return opened
    }

    private func prepare(_ app: AppRecord, in root: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        try Directory.makeDirectory(app.viewName, in: root, mode: 0o700)
        let directory = try Directory.open(app.viewName, in: root)
        do {
            try Directory.makeDirectory(InboxPolicy.rejectedDirectory, in: directory, mode: 0o700)
            let rejected = try Directory.open(InboxPolicy.rejectedDirectory, in: directory)
            defer { rejected.close() }
            for target in [directory, rejected] {
                if let writer = app.ownUID(ownerUID: ownerUID) {
                    try AccessControl.apply(access: ViewAccessList(inboxWriter: writer),
                                            inherited: ViewAccessList(inboxFilesReadableBy: ownerUID, writer: writer), to: target)
                } else {
                    try AccessControl.clear(target)
                }
            }
        } catch {
            directory.close()
            throw error
        }
        return directory
    }
}
