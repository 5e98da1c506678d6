public import PhotoLibCore
import PhotoLibSystem

/// Where the daemon keeps everything, resolved from flags, config and embedded defaults.
public struct DaemonConfiguration: Sendable, Equatable {
    /// The photo library directory (absolute).
    public var library: String
    /// The directory holding one view directory per app (absolute; on the library's mount).
    public var views: String
    /// The directory holding the database (absolute).
    public var state: String
    /// The Unix socket path.
    public var socket: String
    /// Which names count as assets.
    public var namePolicy: AssetNamePolicy
    /// True when the library path came from the embedded default (then it may be created).
    public var libraryIsDefault: Bool
    /// True while nobody chose the socket: it then follows the state directory's default.
    public private(set) var socketIsDefault = true
    /// True while nobody chose the views directory: it then stays `views` inside the state directory.
    public private(set) var viewsIsDefault = true
    /// Events kept per app for resuming; an older token gets a reset.
    public var historyRetention = 10_000
    /// Connection limits and timeouts (SPEC §5: limits on everything a client controls).
    public var limits = ConnectionLimitSettings()
    /// The directory holding one inbox per app (absolute), named like its view.
    public private(set) var inboxes: String
    /// True while nobody chose the inboxes directory: it then stays `inboxes` inside the state directory.
    public private(set) var inboxesIsDefault = true
    /// Where files taken from inboxes go, inside the library: `<album>/<app ID>/`.
    public var importAlbum = RelativePath(escaped: "Imported")!
    /// Per-file size and per-app daily quota of the inboxes.
    public var inboxLimits = InboxLimits.standard
    /// How long the access report keeps what apps were handed and opened (seconds; 7 days, as iOS).
    public var reportRetention: Int64 = 7 * 86_400
    /// Whether the views are watched for opens (the access report's "open" lines).
    public var reportWatchesOpens = true
    /// Whether view entries are hard links, reflink clones, or clones where the filesystem can.
    public var viewMode = ViewModeSetting.standard
    /// Whether a limited Flatpak app's Pictures folder may be served read-only through FUSE where
    /// its filesystem cannot clone (`PicturesFolderForm`), instead of holding copies.
    public var fuseViews = true
    /// Seconds between verification rounds over what inotify cannot follow (a library on a network or
    /// FUSE filesystem, directories past the watch limit); rounds back off to four times it while
    /// nothing changes. Thirty seconds: a photo synced to a NAS shows within a minute, and a round
    /// over a quiet library costs a stat per directory and per file at most every two minutes.
    public var verifyIntervalSeconds = 30
    /// Where installed Flatpak apps' Pictures folders are: the owner's home and Pictures folder
    /// as xdg-user-dirs names it, read once at start (Flatpak reads it at each app's start).
    public var flatpakPictures = FlatpakFiles.picturesFolder(home: ProcessIdentity.homeDirectory ?? "/")

    public init(library: String, views: String, state: String, socket: String,
                namePolicy: AssetNamePolicy = .standard, libraryIsDefault: Bool = false) {
        self.library = library
        self.views = views
        self.state = state
        self.socket = socket
        self.namePolicy = namePolicy
        self.libraryIsDefault = libraryIsDefault
        inboxes = state + "/inboxes"
    }

    /// What resolving could not settle and went on without, for the daemon to log.
    public var warnings: [String] = []

    public var databasePath: String { state + "/photolibd.sqlite" }

    /// The directory of the apps' endpoints: `photolibd-endpoints` beside the
    /// main socket (so under the runtime directory by default), one socket per
    /// app named like its view.
    public var endpointsDirectory: String {
        let parent = socket.lastIndex(of: "/").map { String(socket[..<$0]) } ?? "."
        return (parent.isEmpty ? "" : parent) + "/photolibd-endpoints"
    }

    /// The embedded defaults for the calling user (SPEC §7): library `~/Pictures`,
    /// state and views under `$XDG_DATA_HOME/photolibd` (`~/.local/share/photolibd`),
    /// socket in `$XDG_RUNTIME_DIR`.
    public static func defaults() -> DaemonConfiguration {
        let home = ProcessIdentity.homeDirectory ?? "/"
        let state = DefaultPaths.stateDirectory
        return DaemonConfiguration(
            library: home + "/Pictures",
            views: state + "/views",
            state: state,
            socket: DefaultPaths.socket(stateDirectory: state),
            libraryIsDefault: true
        )
    }

    /// Moves the state directory; a socket and a views directory nobody chose follow it.
    public mutating func setState(_ path: String) {
        state = path
        if socketIsDefault { socket = DefaultPaths.socket(stateDirectory: path) }
        if viewsIsDefault { views = path + "/views" }
        if inboxesIsDefault { inboxes = path + "/inboxes" }
    }

    /// Sets the inboxes directory explicitly: later state changes leave it alone.
    public mutating func setInboxes(_ path: String) {
        inboxes = path
        inboxesIsDefault = false
    }

    /// Sets the views directory explicitly: later state changes leave it alone.
    public mutating func setViews(_ path: String) {
        views = path
        viewsIsDefault = false
    }

    /// Sets the socket explicitly: later state changes leave it alone.
    public mutating func setSocket(_ path: String) {
        socket = path
        socketIsDefault = false
    }
}
