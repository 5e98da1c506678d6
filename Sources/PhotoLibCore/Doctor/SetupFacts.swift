/// What `photolibctl doctor` measured about one setup, gathered without changing anything.
///
/// The gathering makes system calls (PhotoLibDoctor); judging them is pure
/// (`DoctorVerdicts`), so every verdict and its advice is unit-tested here.
public struct SetupFacts: Sendable {
    /// Owner, group, type, permission bits and ACL of one path.
    public struct Node: Sendable, Equatable {
        public var owner: UInt32
        public var group: UInt32
        public var permissions: UInt32
        public var isDirectory: Bool
        public var isSocket: Bool
        /// The `system.posix_acl_access` value, when the path has an ACL.
        public var accessList: [UInt8]?

        public init(owner: UInt32, group: UInt32 = .max, permissions: UInt32, isDirectory: Bool = true, isSocket: Bool = false,
                    accessList: [UInt8]? = nil) {
            self.owner = owner
            self.group = group
            self.permissions = permissions
            self.isDirectory = isDirectory
            self.isSocket = isSocket
            self.accessList = accessList
        }

        /// Who may do what: the ACL when there is a readable one, else the mode.
        public var access: AccessRule {
            accessList.flatMap { AccessRule(owner: owner, group: group, permissions: permissions, xattr: $0) }
                ?? AccessRule(owner: owner, group: group, permissions: permissions)
        }

        /// Others (not owner, not group) may enter or read it.
        public var openToOthers: Bool { permissions & 0o005 != 0 }
        public var traversableByOthers: Bool { permissions & 0o001 != 0 }
    }

    /// One registered app, as the daemon reported it.
    public struct App: Sendable, Equatable {
        public var id: String
        public var uid: UInt32
        /// Its view directory's absolute path.
        public var view: String

        public init(id: String, uid: UInt32, view: String) {
            self.id = id
            self.uid = uid
            self.view = view
        }
    }

    /// What the running daemon said about itself; nil when it could not be reached.
    public struct Daemon: Sendable, Equatable {
        public var state: String
        public var scannedFiles: Int
        public var failedWatches: Int
        public var apps: [App]
        /// Library paths the daemon cannot read now (escaped).
        public var unreadable: [String]
        /// Originals left out of every view: path and why (a sentence).
        public var refused: [(path: String, reason: String)]
        /// Files left out of the views of apps without location: path and why its location cannot be told.
        public var withheld: [(path: String, reason: String)]
        /// How views hold photos (`links` or `clones`) and why, as the daemon decided at start.
        public var viewMode: String?
        public var viewModeReason: String?
        /// "available", or why a limited Flatpak app's Pictures folder cannot be served through FUSE.
        public var fuseViews: String?
        /// Limited Flatpak apps whose Pictures folder holds full copies, and why (`PicturesFolderForm.copies`).
        public var copyingFolders: [(app: String, reason: String)] = []
        /// Apps that read their view themselves and hold copies in it, and why (views of references).
        public var copyingViews: [(app: String, reason: String)] = []
        /// While a network library's server does not answer: since when (seconds since the epoch) and why.
        public var unavailable: (since: Int64, reason: String)?
        /// The uids registered for apps.
        public var appUIDs: [UInt32] { apps.map(\.uid) }

        public init(state: String, scannedFiles: Int, failedWatches: Int, apps: [App], unreadable: [String] = [],
                    refused: [(path: String, reason: String)] = [], withheld: [(path: String, reason: String)] = [],
                    viewMode: String? = nil, viewModeReason: String? = nil) {
            self.viewMode = viewMode
            self.viewModeReason = viewModeReason
            self.withheld = withheld
            self.state = state
            self.scannedFiles = scannedFiles
            self.failedWatches = failedWatches
            self.apps = apps
            self.unreadable = unreadable
            self.refused = refused
        }

        public static func == (lhs: Daemon, rhs: Daemon) -> Bool {
            lhs.state == rhs.state && lhs.scannedFiles == rhs.scannedFiles && lhs.failedWatches == rhs.failedWatches
                && lhs.apps == rhs.apps && lhs.unreadable == rhs.unreadable
                && lhs.refused.map(\.path) == rhs.refused.map(\.path) && lhs.refused.map(\.reason) == rhs.refused.map(\.reason)
                && lhs.withheld.map(\.path) == rhs.withheld.map(\.path) && lhs.withheld.map(\.reason) == rhs.withheld.map(\.reason)
                && lhs.viewMode == rhs.viewMode && lhs.viewModeReason == rhs.viewModeReason && lhs.fuseViews == rhs.fuseViews
                && lhs.copyingFolders.map(\.app) == rhs.copyingFolders.map(\.app) && lhs.copyingFolders.map(\.reason) == rhs.copyingFolders.map(\.reason)
        }
    }

    /// The way from `/` to one app's view: every directory above it, then the view itself.
    public struct ViewPath: Sendable {
        public var app: App
        public var ancestors: [(path: String, node: Node)]
        /// Nil when the view directory does not exist.
        public var view: Node?

        public init(app: App, ancestors: [(path: String, node: Node)], view: Node?) {
            self.app = app
            self.ancestors = ancestors
            self.view = view
        }
    }

    /// An installed Flatpak app photolibd limits, as the daemon found it (`apps.installed`).
    public struct FlatpakApp: Sendable, Equatable {
        public var id: String
        public var name: String
        /// Why it would not find its view at its next start; nil when it would.
        public var undone: String?
        /// It runs now with the permissions it had before its override last changed.
        public var runsWithOldPermissions: Bool

        public init(id: String, name: String, undone: String?, runsWithOldPermissions: Bool) {
            self.id = id
            self.name = name
            self.undone = undone
            self.runsWithOldPermissions = runsWithOldPermissions
        }
    }

    /// What `flatpak --version` says; nil when flatpak is not installed (or not asked, as on the page).
    public var flatpakVersion: String?
    /// The Flatpak apps photolibd limits now.
    public var flatpakApps: [FlatpakApp] = []

    public var library: String
    public var views: String
    public var socket: String
    /// The uid photolibd runs as: the library's owner.
    public var ownerUID: UInt32

    public var daemon: Daemon?
    /// Why the daemon could not be reached, when it could not.
    public var daemonUnreachable: String?

    public var libraryNode: Node?
    /// The library's ancestors from `/` down, each with its node (for "who can get in").
    public var libraryAncestors: [(path: String, node: Node)] = []
    public var libraryMountID: UInt64?
    /// Of the views directory, or of its nearest existing ancestor.
    public var viewsMountID: UInt64?
    public var viewsRoot: Node?
    /// Each app's view directory under the views root.
    public var viewDirectories: [(name: String, node: Node)] = []

    /// Directories in the library, the root included (each needs one inotify watch).
    public var libraryDirectories = 0
    /// Directories that could not be listed.
    public var unreadableDirectories: [String] = []
    /// Media files whose inode group or others may write (escaped paths relative to the library).
    public var writableOriginals: [String] = []

    /// For each app that runs under a uid of its own, the way to its view.
    public var viewPaths: [ViewPath] = []

    public var socketNode: Node?
    /// The socket's ancestor directories from `/` down.
    public var socketAncestors: [(path: String, node: Node)] = []
    /// Each app uid's groups (primary and supplementary); none for a uid with no user entry.
    public var appGroups: [UInt32: Set<UInt32>] = [:]

    public var maxUserWatches: Int?
    public var protectedHardlinks: Int?
    /// Whether apps' file dialogs come to photolibd (the portal backend).
    public var fileDialogs = PortalChoice()

    public init(library: String, views: String, socket: String, ownerUID: UInt32) {
        self.library = library
        self.views = views
        self.socket = socket
        self.ownerUID = ownerUID
    }
}
