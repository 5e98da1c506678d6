/// `status` result: the daemon, its library, and how far the scan has come.
public struct StatusResult: Codable, Sendable, Equatable {
    public var version: String
    public var pid: Int32
    public var library: String
    public var views: String
    public var socket: String
    /// `starting`, `scanning`, `ready`, `degraded` (ready, but some directories have
    /// no inotify watch, see `failedWatches`, or cannot be read, see `unreadable`), `unavailable` (the
    /// network library's server does not answer, see `unavailable`), or `libraryMissing`.
    public var state: String
    public var scannedDirectories: Int
    public var scannedFiles: Int
    public var assets: Int
    public var albums: Int
    public var apps: Int
    public var watches: Int
    public var failedWatches: Int
    /// Library paths (escaped) that cannot be read now: their assets, IDs and
    /// selections are kept as they were, and `state` is `degraded` until they can be read.
    public var unreadable: [String]?
    /// Derivatives without location on disk (for apps whose location policy
    /// is `none`), and the bytes they take.
    public var derivatives: Int?
    public var derivativeBytes: Int64?
    /// Files left out of the views of apps without location, because whether
    /// they hold one cannot be told (the log names each, with why).
    public var withheldFromNoLocation: Int?
    /// How views hold photos: `links` (hard links) or `clones` (reflink clones), from the
    /// `view_mode` setting and the views' filesystem; `viewModeReason` says which decided.
    public var viewMode: String?
    public var viewModeReason: String?
    /// "available", or why a limited Flatpak app's Pictures folder cannot be served through FUSE here.
    public var fuseViews: String?
    /// Why nothing reads the library's inotify events now (photolibd-inotify cannot start, or keeps
    /// ending and waits its turn), in words; the state is then `degraded`.
    public var watcherDown: String?
    /// Verification rounds, while part of the library is one inotify cannot follow (absent otherwise).
    public var rounds: RoundsInfo?
    /// While a network library's server does not answer: since when and why. Nothing is taken for
    /// gone meanwhile; the first round it answers brings everything up to date.
    public var unavailable: LibraryUnavailable?

    public init(version: String, pid: Int32, library: String, views: String, socket: String, state: String,
                scannedDirectories: Int, scannedFiles: Int, assets: Int, albums: Int, apps: Int, watches: Int, failedWatches: Int,
                unreadable: [String]? = nil, derivatives: Int? = nil, derivativeBytes: Int64? = nil, withheldFromNoLocation: Int? = nil,
                viewMode: String? = nil, viewModeReason: String? = nil, watcherDown: String? = nil, fuseViews: String? = nil,
                rounds: RoundsInfo? = nil, unavailable: LibraryUnavailable? = nil) {
        self.unavailable = unavailable
        self.rounds = rounds
        self.fuseViews = fuseViews
        self.watcherDown = watcherDown
        self.viewMode = viewMode
        self.viewModeReason = viewModeReason
        self.withheldFromNoLocation = withheldFromNoLocation
        self.derivatives = derivatives
        self.derivativeBytes = derivativeBytes
        self.version = version
        self.pid = pid
        self.library = library
        self.views = views
        self.socket = socket
        self.state = state
        self.scannedDirectories = scannedDirectories
        self.scannedFiles = scannedFiles
        self.assets = assets
        self.albums = albums
        self.apps = apps
        self.watches = watches
        self.failedWatches = failedWatches
        self.unreadable = unreadable
    }
}

/// A network library's server away, in `status`: since when (seconds since the epoch), and why in words.
public struct LibraryUnavailable: Codable, Sendable, Equatable {
    public var since: Int64
    public var reason: String

    public init(since: Int64, reason: String) {
        self.since = since
        self.reason = reason
    }
}

/// How verification rounds follow what inotify cannot (a library on a network or FUSE filesystem,
/// directories past the watch limit): why, over what, how often, and the last round.
public struct RoundsInfo: Codable, Sendable, Equatable {
    /// Why rounds run, in words.
    public var reason: String
    /// Directories the last round looked at, and indexed files whose own stat it compared.
    public var directories: Int
    public var files: Int
    /// Seconds between rounds now (up to four times `verify_interval` while nothing changes).
    public var intervalSeconds: Int
    /// When the last round ended (seconds since the epoch), and how long it took.
    public var lastRoundAt: Int64
    public var lastRoundMilliseconds: Int
    /// Why the last round could not look at everything, if so (the next one tries again).
    public var lastFailure: String?

    public init(reason: String, directories: Int, files: Int, intervalSeconds: Int, lastRoundAt: Int64, lastRoundMilliseconds: Int,
                lastFailure: String? = nil) {
        self.reason = reason
        self.directories = directories
        self.files = files
        self.intervalSeconds = intervalSeconds
        self.lastRoundAt = lastRoundAt
        self.lastRoundMilliseconds = lastRoundMilliseconds
        self.lastFailure = lastFailure
    }
}

/// `assets` parameters: every filter is optional.
public struct AssetsParams: Codable, Sendable, Equatable {
    /// An album path relative to the library (escaped); includes its sub-albums.
    public var album: String?
    /// `image`, `video` or `live`.
    public var type: String?
    /// A case-insensitive substring of the file name or of its album's path.
    public var search: String?
    /// Taken at or after this (seconds since the epoch): the capture time, or the modification time of a file not yet read.
    public var takenFrom: Int64?
    /// Taken before this (seconds since the epoch).
    public var takenTo: Int64?
    /// `true`: only originals left out of every view (see `AssetInfo.refused`).
    public var refused: Bool?
    /// `true`: only assets withheld from apps without location (see `AssetInfo.withheld`).
    public var withheld: Bool?
    /// An app: each asset carries `appID`, the ID that app knows it by.
    public var app: String?
    /// `path` (the default: by path, bytewise) or `newest` (latest modification first, then by path).
    public var order: String?
    /// Assets to skip in that order, for a page of a long listing.
    public var offset: Int?
    /// At most this many assets after `offset` (0: none, only `total`).
    public var limit: Int?

    public init(album: String? = nil, type: String? = nil, search: String? = nil, refused: Bool? = nil, withheld: Bool? = nil,
                app: String? = nil, order: String? = nil, offset: Int? = nil, limit: Int? = nil,
                takenFrom: Int64? = nil, takenTo: Int64? = nil) {
        self.takenFrom = takenFrom
        self.takenTo = takenTo
        self.order = order
        self.offset = offset
        self.limit = limit
        self.app = app
        self.withheld = withheld
        self.album = album
        self.type = type
        self.search = search
        self.refused = refused
    }
}

/// An asset as the owner sees it.
public struct AssetInfo: Codable, Sendable, Equatable {
    public var id: String
    /// Path relative to the library, escaped (see docs/PROTOCOL.md, "Names").
    public var path: String
    public var mediaType: String
    public var size: Int64
    /// Modification time, nanoseconds since the Unix epoch.
    public var mtime: Int64
    /// Present and true when group or others may write the file: it is never linked into views.
    public var writableByOthers: Bool?
    /// Present when the original is left out of every view: `ownedByAnotherUser`,
    /// `writableByOthers`, `setID`, `linkNotPermitted` or `tooManyLinks`.
    public var refused: String?
    /// With `refused`: a sentence saying why, and what to do.
    public var refusedBecause: String?
    /// Every file of an asset with several (a Live Photo: `mediaType` `live`),
    /// the photo first; `path`, `size` and `mtime` above are the photo's.
    public var members: [MemberInfo]?
    /// Present when a file of the asset is left out of the views of apps without
    /// location: why its location cannot be told.
    public var withheld: String?
    /// With `assets`' `app`: the ID that app knows the asset by (each app has its own).
    public var appID: String?
    /// Where it was taken, "Rennes, Brittany Region, France", once looked at: the owner's listing only.
    public var place: String?

    public init(id: String, path: String, mediaType: String, size: Int64, mtime: Int64, writableByOthers: Bool?,
                refused: String? = nil, refusedBecause: String? = nil, members: [MemberInfo]? = nil, withheld: String? = nil) {
        self.withheld = withheld
        self.id = id
        self.path = path
        self.mediaType = mediaType
        self.size = size
        self.mtime = mtime
        self.writableByOthers = writableByOthers
        self.refused = refused
        self.refusedBecause = refusedBecause
        self.members = members
    }
}

/// One file of an asset with several, as the owner sees it.
public struct MemberInfo: Codable, Sendable, Equatable {
    /// Path relative to the library, escaped.
    public var path: String
    /// `image` or `video`.
    public var mediaType: String
    public var size: Int64
    public var mtime: Int64
    /// Present when this file is left out of every view (see `AssetInfo.refused`).
    public var refused: String?

    public init(path: String, mediaType: String, size: Int64, mtime: Int64, refused: String? = nil) {
        self.path = path
        self.mediaType = mediaType
        self.size = size
        self.mtime = mtime
        self.refused = refused
    }
}

/// `albums` (admin): every album of the library, by path.
public struct AlbumsResult: Codable, Sendable, Equatable {
    /// Album paths relative to the library (escaped), bytewise in order; the library itself is not one.
    public var albums: [String]
    /// With `summaries`: each album of `albums`, in the same order, with its count and cover.
    public var summaries: [AlbumSummary]?
    public init(albums: [String], summaries: [AlbumSummary]? = nil) {
        self.albums = albums
        self.summaries = summaries
    }
}

public struct AssetsResult: Codable, Sendable, Equatable {
    public var assets: [AssetInfo]
    /// How many assets match the filters, before `offset` and `limit`.
    public var total: Int?
    public init(assets: [AssetInfo], total: Int? = nil) {
        self.assets = assets
        self.total = total
    }
}

public struct AddAppParams: Codable, Sendable, Equatable {
    public var app: String
    public var uid: UInt32
    public var purpose: String?
    /// `precise` or `none` (the default when absent).
    public var location: String?
    /// An installed Flatpak app (`uid` is then the daemon's own): its Pictures folder becomes its view.
    public var flatpak: Bool?
    public init(app: String, uid: UInt32, purpose: String?, location: String? = nil, flatpak: Bool? = nil) {
        self.flatpak = flatpak
        self.app = app
        self.uid = uid
        self.purpose = purpose
        self.location = location
    }
}

/// `app.set`: changes what the person decides about a registered app.
public struct SetAppParams: Codable, Sendable, Equatable {
    public var app: String
    /// `precise` or `none`.
    public var location: String?
    /// `shared` or `removed`: whether captions and people's names leave with the app's picks by default.
    public var captions: String?
    public init(app: String, location: String?, captions: String? = nil) {
        self.app = app
        self.location = location
        self.captions = captions
    }
}

public struct AppParams: Codable, Sendable, Equatable {
    public var app: String
    public init(app: String) { self.app = app }
}

/// How an app's view holds its photos: `links` or `clones` under the views; for a limited Flatpak
/// app's Pictures folder `clones`, `fuse` (a read-only mirror, nothing copied) or `copies`, with why.
public struct AppEntries: Codable, Sendable, Equatable {
    public var form: String
    public var reason: String?

    public init(form: String, reason: String? = nil) {
        self.form = form
        self.reason = reason
    }
}

public struct AppInfo: Codable, Sendable, Equatable {
    public var app: String
    public var uid: UInt32
    public var purpose: String
    public var readWrite: String
    public var addOnly: String
    public var view: String
    /// The app's own socket: a peer that connects there is this app and nothing more.
    public var endpoint: String?
    /// The app's inbox: files it writes there are added to the library.
    public var inbox: String?
    public var selectedAssets: Int
    public var selectedAlbums: Int
    /// For a timed status: when it ends (seconds since the epoch) and what it returns to.
    public var readWriteEndsAt: Int64?
    public var readWriteReturnsTo: String?
    public var addOnlyEndsAt: Int64?
    public var addOnlyReturnsTo: String?
    /// `precise` or `none`: whether the app sees where photos were taken.
    public var location: String
    /// True for an installed Flatpak app whose Pictures folder (`view`) is its view.
    public var flatpak: Bool?
    /// `shared` or `removed`: whether captions and people's names leave with its picks unless the person says otherwise.
    public var captions: String?
    /// How its view holds the photos it may see.
    public var entries: AppEntries?

    public init(app: String, uid: UInt32, purpose: String, readWrite: String, addOnly: String, view: String,
                endpoint: String? = nil, inbox: String? = nil, selectedAssets: Int, selectedAlbums: Int,
                readWriteEnd: (at: Int64, returnsTo: String)? = nil, addOnlyEnd: (at: Int64, returnsTo: String)? = nil,
                location: String, flatpak: Bool? = nil, captions: String? = nil, entries: AppEntries? = nil) {
        self.entries = entries
        self.captions = captions
        self.flatpak = flatpak
        self.location = location
        readWriteEndsAt = readWriteEnd?.at
        readWriteReturnsTo = readWriteEnd?.returnsTo
        addOnlyEndsAt = addOnlyEnd?.at
        addOnlyReturnsTo = addOnlyEnd?.returnsTo
        self.app = app
        self.uid = uid
        self.purpose = purpose
        self.readWrite = readWrite
        self.addOnly = addOnly
        self.view = view
        self.endpoint = endpoint
        self.inbox = inbox
        self.selectedAssets = selectedAssets
        self.selectedAlbums = selectedAlbums
    }
}

public struct AppsResult: Codable, Sendable, Equatable {
    public var apps: [AppInfo]
    public init(apps: [AppInfo]) { self.apps = apps }
}

public struct AuthorizeParams: Codable, Sendable, Equatable {
    public var app: String
    /// A PhotoKit status: `authorized`, `limited`, `denied`, `restricted`, `notDetermined`.
    public var status: String
    /// `readWrite` (default) or `addOnly`.
    public var access: String?
    /// For a while: the status ends after this many seconds, or at `until`
    /// (seconds since the epoch), and returns to what it was.
    public var forSeconds: Int64?
    public var until: Int64?
    /// The person confirms what a Flatpak app whose permission is `home` or `host` loses when it is limited.
    public var confirm: Bool?
    public init(app: String, status: String, access: String?, forSeconds: Int64? = nil, until: Int64? = nil, confirm: Bool? = nil) {
        self.confirm = confirm
        self.forSeconds = forSeconds
        self.until = until
        self.app = app
        self.status = status
        self.access = access
    }
}

/// `select` / `deselect` parameters.
public struct SelectionEditParams: Codable, Sendable, Equatable {
    public var app: String
    /// Asset IDs or paths in the library (escaped).
    public var assets: [String]?
    /// Album paths in the library (escaped); `""` is the whole library.
    public var albums: [String]?
    /// `select` for a while: the grants end after this many seconds, or at
    /// `until` (seconds since the epoch). Without either they last.
    public var forSeconds: Int64?
    public var until: Int64?
    /// `select`: a rule grant, every asset taken from `takenFrom` (inclusive)
    /// to `takenTo` (exclusive), seconds since the epoch, of `type` when given.
    public var takenFrom: Int64?
    public var takenTo: Int64?
    public var type: String?
    /// `deselect`: rule grants by number, or all of the app's.
    public var rules: [Int64]?
    public var allRules: Bool?
    public init(app: String, assets: [String]?, albums: [String]?, forSeconds: Int64? = nil, until: Int64? = nil,
                takenFrom: Int64? = nil, takenTo: Int64? = nil, type: String? = nil, rules: [Int64]? = nil, allRules: Bool? = nil) {
        self.takenFrom = takenFrom
        self.takenTo = takenTo
        self.type = type
        self.rules = rules
        self.allRules = allRules
        self.forSeconds = forSeconds
        self.until = until
        self.app = app
        self.assets = assets
        self.albums = albums
    }
}

public struct SelectionEditResult: Codable, Sendable, Equatable {
    /// Asset IDs whose selection changed.
    public var assets: [String]
    /// Album paths whose selection changed.
    public var albums: [String]
    /// Named assets whose originals are refused: selected, but in no view until fixed.
    public var refused: [AssetInfo]?
    /// Rule grants made or removed.
    public var rules: [RuleInfo]?
    public init(assets: [String], albums: [String], refused: [AssetInfo]? = nil, rules: [RuleInfo]? = nil) {
        self.rules = rules
        self.assets = assets
        self.albums = albums
        self.refused = refused
    }
}

public struct SelectionResult: Codable, Sendable, Equatable {
    public var app: String
    public var status: String
    public var assets: [AssetInfo]
    public var albums: [String]
    /// The grants that end, and when (seconds since the epoch): assets by ID, albums by path.
    public var ends: GrantEnds?
    /// Rule grants: assets taken in a span.
    public var rules: [RuleInfo]?
    public init(app: String, status: String, assets: [AssetInfo], albums: [String], ends: GrantEnds? = nil, rules: [RuleInfo]? = nil) {
        self.rules = rules
        self.ends = ends
        self.app = app
        self.status = status
        self.assets = assets
        self.albums = albums
    }
}

/// A rule grant: every asset taken from `takenFrom` (inclusive) to `takenTo`
/// (exclusive), seconds since the epoch, of `type` when given.
public struct RuleInfo: Codable, Sendable, Equatable {
    public var rule: Int64
    public var takenFrom: Int64
    public var takenTo: Int64
    public var type: String?
    public init(rule: Int64, takenFrom: Int64, takenTo: Int64, type: String?) {
        self.rule = rule
        self.takenFrom = takenFrom
        self.takenTo = takenTo
        self.type = type
    }
}

/// When timed grants end, seconds since the epoch.
public struct GrantEnds: Codable, Sendable, Equatable {
    public var assets: [String: Int64]
    public var albums: [String: Int64]
    public init(assets: [String: Int64], albums: [String: Int64]) {
        self.assets = assets
        self.albums = albums
    }
}

public struct EmptyResult: Codable, Sendable, Equatable {
    public init() {}
}

/// The reply to `rescan`, sent once the re-walk and every view's reconcile are done.
public struct RescanResult: Codable, Sendable, Equatable {
    public var assets: Int
    public var directories: Int
    /// Directories left without an inotify watch (raise fs.inotify.max_user_watches).
    public var failedWatches: Int
    public var seconds: Double

    public init(assets: Int, directories: Int, failedWatches: Int, seconds: Double) {
        self.assets = assets
        self.directories = directories
        self.failedWatches = failedWatches
        self.seconds = seconds
    }
}
