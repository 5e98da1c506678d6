public import PhotoLibCore
import PhotoLibSystem

/// Gathers `SetupFacts` about a library, its views and its socket, changing nothing.
///
/// Doctor must work when the daemon cannot start (views on another mount is
/// exactly such a case), so it looks for itself rather than asking the daemon.
public enum SetupSurvey {
    public static func gather(library: String, views: String, socket: String, namePolicy: AssetNamePolicy,
                              daemon: SetupFacts.Daemon?, daemonUnreachable: String?) -> SetupFacts {
        let libraryStatus = PathInspection.status(library)
        var facts = SetupFacts(library: library, views: views, socket: socket,
                               ownerUID: libraryStatus?.owner ?? ProcessIdentity.userID)
        facts.daemon = daemon
        facts.daemonUnreachable = daemonUnreachable
        facts.libraryNode = libraryStatus.map { node($0, at: library) }
        facts.libraryAncestors = ancestors(of: library)
        facts.libraryMountID = PathInspection.mountID(ofNearest: library)
        facts.viewsMountID = PathInspection.mountID(ofNearest: views)
        facts.viewsRoot = PathInspection.status(views).map(node)
        facts.viewDirectories = viewDirectories(views)
        facts.socketNode = PathInspection.status(socket).map { node($0, at: socket) }
        facts.socketAncestors = ancestors(of: socket)
        for uid in daemon?.appUIDs ?? [] {
            facts.appGroups[uid] = PathInspection.groups(ofUser: uid)
        }
        for app in daemon?.apps ?? [] where app.uid != facts.ownerUID && app.uid != 0 {
            facts.viewPaths.append(.init(app: app, ancestors: ancestors(of: app.view),
                                         view: PathInspection.status(app.view).map { node($0, at: app.view) }))
        }
        facts.maxUserWatches = PathInspection.kernelSetting("fs.inotify.max_user_watches")
        facts.protectedHardlinks = PathInspection.kernelSetting("fs.protected_hardlinks")
        facts.fileDialogs = PortalSurvey.gather()
        if libraryStatus?.kind == .directory, let root = try? Directory.open(path: library) {
            defer { root.close() }
            var walk = LibraryWalk(policy: namePolicy)
            walk.visit(root, at: .root)
            facts.libraryDirectories = walk.directories
            facts.unreadableDirectories = walk.unreadable
            facts.writableOriginals = walk.writable
        }
        return facts
    }

    /// Only what judges whether app uids can reach the library (`DoctorVerdicts.libraryPrivacy`):
    /// cheap enough for the daemon to ask at start and whenever its apps change.
    /// - Parameter groups: a uid's supplementary groups (the daemon passes a
    ///   cache: looking a uid up reads the user and group databases).
    public static func gatherLibraryReach(
        library: String, apps: [SetupFacts.App], groups: (UInt32) -> Set<UInt32> = PathInspection.groups(ofUser:)
    ) -> SetupFacts {
        let libraryStatus = PathInspection.status(library)
        var facts = SetupFacts(library: library, views: "", socket: "", ownerUID: libraryStatus?.owner ?? ProcessIdentity.userID)
        facts.daemon = SetupFacts.Daemon(state: "ready", scannedFiles: 0, failedWatches: 0, apps: apps)
        facts.libraryNode = libraryStatus.map { node($0, at: library) }
        facts.libraryAncestors = ancestors(of: library)
        for uid in Set(apps.map(\.uid)) {
            facts.appGroups[uid] = groups(uid)
        }
        return facts
    }

    static func node(_ status: FileStatus) -> SetupFacts.Node {
        SetupFacts.Node(owner: status.owner, group: status.group, permissions: status.permissions,
                        isDirectory: status.kind == .directory, isSocket: status.isSocket)
    }

    /// Like `node(_:)`, with the path's ACL (for "can this uid get in").
    static func node(_ status: FileStatus, at path: String) -> SetupFacts.Node {
        var result = node(status)
        result.accessList = PathInspection.accessList(path)
        return result
    }

    /// Each existing ancestor directory of `path`, from `/` down.
    static func ancestors(of path: String) -> [(path: String, node: SetupFacts.Node)] {
        var result: [(path: String, node: SetupFacts.Node)] = []
        var prefix = ""
        for part in path.split(separator: "/").dropLast() {
            prefix += "/" + part
            if let status = PathInspection.status(prefix) { result.append((prefix, node(status, at: prefix))) }
        }
        if let root = PathInspection.status("/") { result.insert(("/", node(root, at: "/")), at: 0) }
        return result
    }

    static func viewDirectories(_ views: String) -> [(name: String, node: SetupFacts.Node)] {
        guard let root = try? Directory.open(path: views) else { return [] }
        defer { root.close() }
        guard let entries = try? Directory.list(root) else { return [] }
        return entries.compactMap { entry in
            guard let status = try? Directory.status(of: entry.name, in: root), status.kind == .directory else { return nil }
            return (entry.name.escaped, node(status))
        }
    }
}

/// A read-only walk of the library that counts directories and finds originals others may write.
///
/// Same rules as the daemon's scan: symlinks are never followed, and only
/// names the asset policy accepts count as originals.
struct LibraryWalk {
    let policy: AssetNamePolicy
    var directories = 0
    var unreadable: [String] = []
    var writable: [String] = []

    init(policy: AssetNamePolicy) {
        self.policy = policy
    }

    mutating func visit(_ directory: FileDescriptor, at path: RelativePath) {
        directories += 1
        guard let entries = try? Directory.list(directory) else {
            unreadable.append(path.description)
            return
        }
        for entry in entries {
            var kind = entry.kind
            var status: FileStatus?
            // Only originals need their mode; other files are skipped unread.
            if kind == .unknown || kind == .regular && policy.mediaType(of: entry.name) != nil {
                status = try? Directory.status(of: entry.name, in: directory)
                switch status?.kind {
                case .regular?: kind = .regular
                case .directory?: kind = .directory
                default: kind = .other
                }
            }
            switch kind {
            case .directory:
                guard let child = try? Directory.open(entry.name, in: directory) else {
                    unreadable.append(path.appending(entry.name).description)
                    continue
                }
                visit(child, at: path.appending(entry.name))
                child.close()
            case .regular:
                if status?.isWritableByOthers == true, policy.mediaType(of: entry.name) != nil {
                    writable.append(path.appending(entry.name).description)
                }
            default:
                continue
            }
        }
    }
}
