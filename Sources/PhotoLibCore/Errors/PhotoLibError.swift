/// Every failure photolibd reports to a person or an app, worded in one place.
///
/// Each case knows its protocol `code` (stable, for programs) and its `message`
/// (a full sentence for people that says what went wrong and what to do). The
/// daemon sends both over the socket; `photolibctl` prints the message.
public enum PhotoLibError: Error, Sendable, Equatable, CustomStringConvertible {
    // Requests
    case malformedRequest(String)
    case unknownMethod(String)
    case invalidParameter(name: String, reason: String)
    case lineTooLong(limit: Int)
    case tooManyConnections(limit: Int, perUID: Bool)
    case sinceInFuture(since: Int64, current: Int64)
    case sinceNeedsOneApp
    case ambiguousApp(apps: [String])
    case notPermitted(uid: UInt32)
    case adminOnly(method: String)
    case otherAppsView(caller: AppID, target: AppID)
    case sandboxedOnMainSocket(appID: String)
    case endpointOfAnotherApp(endpoint: AppID, flatpakApp: String)
    case peerUnidentified(uid: UInt32, reason: String)

    // Things named in requests
    case invalidAppID(String)
    case unknownApp(AppID)
    case appExists(AppID, uid: UInt32)
    case invalidAssetID(String)
    case unknownAsset(String)
    case notAnAsset(path: String)
    case unknownAlbum(path: String)
    case invalidStatus(String)
    case invalidLocationPolicy(String)
    case invalidAccessLevel(String)
    case unknownRequest(Int64)
    case invalidAnswer(String, expected: String = "authorized, limited, denied or cancel")
    case reviewNeedsLimited(app: AppID, status: AuthorizationStatus)
    case answerItemsNeedLimited(answer: String)
    case answerNotForAddOnly
    case tooManyWaits(limit: Int)
    case pick(PickProblem)
    case grantEndsInPast(until: Int64, now: Int64)
    /// A Flatpak app that reaches ~/Pictures through `home`, `host` or a folder holding it.
    case flatpakBroadAccess(AppID, grants: [String])
    /// `app add --flatpak` for an app no Flatpak installation holds.
    case flatpakNotInstalled(AppID, installations: [String])
    /// The app's Flatpak user override could not be read or written.
    case flatpakOverrideFailed(AppID, path: String, errno: Int32)
    /// The person's Pictures folder (`XDG_PICTURES_DIR`) is not inside the home, where Flatpak can persist it.
    case picturesOutsideHome(AppID, home: String)

    // Start-up and environment
    case libraryMissing(path: String)
    /// The library path cannot be looked at (EACCES on a directory above it, say): it may well exist.
    case libraryUnreachable(path: String, errno: Int32)
    case libraryNotDirectory(path: String)
    case viewsOnOtherMount(library: String, views: String)
    case viewsInsideLibrary(library: String, views: String)
    case viewsDirectoryNotOurs(path: String)
    case clonesUnsupported(views: String, filesystem: String, reason: String)
    case cannotCreateDirectory(path: String, errno: Int32)
    case socketInUse(path: String)
    case stateInUse(path: String)
    case socketFailed(path: String, errno: Int32)
    /// `endpoint`: the path is an app's endpoint, which goes beside the main socket.
    case socketPathTooLong(path: String, bytes: Int, endpoint: Bool = false)
    case configurationFileMissing(path: String)
    case databaseFailed(path: String, detail: String)
    case configurationInvalid(file: String, line: Int?, key: String?, reason: String)
    case systemCall(name: String, path: String, errno: Int32)
    /// A program of photolibd's own that this one starts is in none of the places it is looked for.
    case helperMissing(name: String, lookedIn: [String])
    /// A helper program was found where photolibd looks, but anyone else could have put it there (`HelperTrust`).
    case helperUntrusted(path: String, reason: String)
    /// SIGTERM came while the request's work was under way: it stopped at a safe point.
    case stopping

    // Client side
    case daemonNotRunning(socket: String)
    case connectionLost
    case protocolMismatch(String)
    /// An error the daemon reported, carried through unchanged.
    case remote(code: String, message: String)

    /// A stable machine-readable code for the protocol.
    public var code: String {
        switch self {
        case .malformedRequest: "malformedRequest"
        case .unknownMethod: "unknownMethod"
        case .invalidParameter: "invalidParameter"
        case .lineTooLong: "lineTooLong"
        case .tooManyConnections: "tooManyConnections"
        case .sinceInFuture: "sinceInFuture"
        case .sinceNeedsOneApp: "sinceNeedsOneApp"
        case .ambiguousApp: "ambiguousApp"
        case .notPermitted: "notPermitted"
        case .adminOnly: "adminOnly"
        case .otherAppsView: "otherAppsView"
        case .sandboxedOnMainSocket: "sandboxedOnMainSocket"
        case .endpointOfAnotherApp: "endpointOfAnotherApp"
        case .peerUnidentified: "peerUnidentified"
        case .invalidAppID: "invalidAppID"
        case .unknownApp: "unknownApp"
        case .appExists: "appExists"
        case .flatpakBroadAccess: "flatpakBroadAccess"
        case .flatpakNotInstalled: "flatpakNotInstalled"
        case .flatpakOverrideFailed: "flatpakOverrideFailed"
        case .picturesOutsideHome: "picturesOutsideHome"
        case .invalidAssetID: "invalidAssetID"
        case .unknownAsset: "unknownAsset"
        case .notAnAsset: "notAnAsset"
        case .unknownAlbum: "unknownAlbum"
        case .invalidStatus: "invalidStatus"
        case .invalidLocationPolicy: "invalidLocationPolicy"
        case .invalidAccessLevel: "invalidAccessLevel"
        case .unknownRequest: "unknownRequest"
        case .invalidAnswer: "invalidAnswer"
        case .reviewNeedsLimited: "reviewNeedsLimited"
        case .answerItemsNeedLimited: "answerItemsNeedLimited"
        case .answerNotForAddOnly: "answerNotForAddOnly"
        case .tooManyWaits: "tooManyWaits"
        case .pick(let problem): problem.code
        case .grantEndsInPast: "grantEndsInPast"
        case .libraryMissing: "libraryMissing"
        case .libraryUnreachable: "libraryUnreachable"
        case .libraryNotDirectory: "libraryNotDirectory"
        case .viewsOnOtherMount: "viewsOnOtherMount"
        case .viewsInsideLibrary: "viewsInsideLibrary"
        case .viewsDirectoryNotOurs: "viewsDirectoryNotOurs"
        case .clonesUnsupported: "clonesUnsupported"
        case .cannotCreateDirectory: "cannotCreateDirectory"
        case .socketInUse: "socketInUse"
        case .stateInUse: "stateInUse"
        case .socketFailed: "socketFailed"
        case .socketPathTooLong: "socketPathTooLong"
        case .configurationFileMissing: "configurationFileMissing"
        case .databaseFailed: "databaseFailed"
        case .configurationInvalid: "configurationInvalid"
        case .systemCall: "systemCall"
        case .helperMissing: "helperMissing"
        case .helperUntrusted: "helperUntrusted"
        case .stopping: "stopping"
        case .daemonNotRunning: "daemonNotRunning"
        case .connectionLost: "connectionLost"
        case .protocolMismatch: "protocolMismatch"
        case .remote(let code, _): code
        }
    }

    public var message: String {
        switch self {
        case .malformedRequest(let detail):
            "The request is not valid JSON of the form {\"id\":…,\"method\":…,\"params\":{…}} (\(detail)); send one JSON object per line."
        case .unknownMethod(let method):
            "There is no method '\(method)'; see docs/PROTOCOL.md for the methods this daemon offers."
        case .invalidParameter(let name, let reason):
            "The parameter '\(name)' is invalid: \(reason)."
        case .lineTooLong(let limit):
            "The request line is longer than \(limit) bytes, so the connection is closed; send shorter requests."
        case .tooManyConnections(let limit, let perUID):
            perUID
                ? "This uid already has \(limit) connections open, the most allowed; close some before opening more."
                : "The daemon already serves \(limit) connections, the most allowed; try again later."
        case .sinceInFuture(let since, let current):
            "The token \(since) is newer than the app's current token \(current); resume from a token a reply or event gave you, or subscribe without since."
        case .sinceNeedsOneApp:
            "'since' resumes one app's changes; name the app in 'app' to use it."
        case .ambiguousApp(let apps):
            "This uid is registered for several apps (\(apps.joined(separator: ", "))); name one in 'app'."
        case .notPermitted(let uid):
            "uid \(uid) is neither this daemon's owner nor a registered app; ask the library's owner to run 'photolibctl app add APP --uid \(uid)'."
        case .adminOnly(let method):
            "Only the library's owner (or root) may call '\(method)'; apps may only ask about their own view."
        case .otherAppsView(let caller, let target):
            "App \(caller) may only use its own view, not that of \(target)."
        case .sandboxedOnMainSocket(let appID):
            "The Flatpak app \(appID) may not use photolibd's main socket, which is the owner's; connect to the app's own endpoint (photolibctl app sandbox \(appID) prints how to give it one)."
        case .endpointOfAnotherApp(let endpoint, let flatpakApp):
            "This is the endpoint of \(endpoint), but the Flatpak app \(flatpakApp) connected to it; give each app only its own endpoint (photolibctl app sandbox APP)."
        case .peerUnidentified(let uid, let reason):
            "Cannot tell whether the process connecting as uid \(uid) runs in a sandbox (\(reason)), so it is refused; retry, and if it persists check /proc is mounted and readable."
        case .invalidAppID(let text):
            "'\(text)' is not an app ID; use reverse-DNS form such as org.example.Viewer (letters, digits, '-', '_', at least one dot)."
        case .unknownApp(let app):
            "No app \(app) is registered; list apps with 'photolibctl apps' or add it with 'photolibctl app add \(app) --uid UID'."
        case .appExists(let app, let uid):
            "App \(app) is already registered (uid \(uid)); remove it first with 'photolibctl app remove \(app)' to change its uid."
        case .flatpakBroadAccess(let app, let grants):
            "\(app) reaches your Pictures folder through its Flatpak permission \(grants.map { "'\($0)'" }.joined(separator: " and ")), which reaches far more than photos: limiting it takes that away (it keeps \(PicturesOverride.keptFolderWords), and its own data). To do so, say it again with --confirm (on the page, confirm the question); or keep Full Access."
        case .flatpakNotInstalled(let app, let installations):
            "No Flatpak app \(app) is installed in \(installations.joined(separator: " or ")); check the ID with 'flatpak list --app'."
        case .flatpakOverrideFailed(let app, let path, let errno):
            "Cannot update the Flatpak override of \(app) at \(path): \(Self.describe(errno)). Check that the directory is yours and writable; nothing was changed for the app."
        case .picturesOutsideHome(let app, let home):
            "Your Pictures folder (XDG_PICTURES_DIR in ~/.config/user-dirs.dirs) is not inside \(home), so Flatpak cannot show \(app) a folder of its own in its place; set it to a folder inside your home (xdg-user-dirs-update --set PICTURES ~/Pictures) and restart photolibd."
        case .invalidAssetID(let text):
            "'\(text)' is neither an asset ID (16 characters, as 'photolibctl assets' prints) nor a path in the library."
        case .unknownAsset(let text):
            "No asset has the ID '\(text)'; list assets with 'photolibctl assets'."
        case .notAnAsset(let path):
            "'\(path)' is not an asset in the library; give a path relative to the library (as 'photolibctl assets' prints) or an asset ID."
        case .unknownAlbum(let path):
            "'\(path)' is not an album in the library; give a directory path relative to the library, as 'photolibctl assets' prints."
        case .invalidStatus(let text):
            "'\(text)' is not an authorization status; use one of authorized, limited, denied, restricted, not-determined."
        case .invalidLocationPolicy(let text):
            "'\(text)' is not a location policy; use precise (the app sees where photos were taken) or none (it gets them without location)."
        case .invalidAccessLevel(let text):
            "'\(text)' is not an access level; use read-write or add-only."
        case .unknownRequest(let id):
            "No request \(id) is pending (it was answered, cancelled, or its app removed); list pending requests with 'photolibctl requests'."
        case .invalidAnswer(let text, let expected):
            "'\(text)' is not an answer to this request; answer with \(expected)."
        case .reviewNeedsLimited(let app, let status):
            "A selection review is for an app with limited access, and \(app) is \(status.commandLineSpelling) for read-write; ask with requestAuthorization instead."
        case .answerItemsNeedLimited(let answer):
            "Assets and albums name what a limited app may see, so they go with the answer 'limited', not '\(answer)'; answer 'limited ASSET... [--album A]' or leave them out."
        case .answerNotForAddOnly:
            "Add-only access is all or nothing, so it cannot be limited; answer authorized, denied or cancel."
        case .pick(let problem):
            problem.message
        case .grantEndsInPast(let until, let now):
            "The grant would end \(now - until) s ago (--until is \(until), the daemon's clock says \(now), seconds since 1970); give a time to come."
        case .tooManyWaits(let limit):
            "This connection already waits for \(limit) answers, the most allowed; wait for those, or ask with wait: false and follow the answers as events."
        case .libraryMissing(let path):
            "The library directory \(path) does not exist; create it or pass --library DIR."
        case .libraryUnreachable(let path, let errno):
            "The library \(path) cannot be reached by this user (\(Self.describe(errno))); let it into every directory above the library (chmod o+x, or an ACL), or run photolibd as the library's owner."
        case .libraryNotDirectory(let path):
            "The library path \(path) is not a directory; pass --library with a directory."
        case .viewsOnOtherMount(let library, let views):
            "The views directory \(views) is not on the same mount as the library \(library), so hardlinks cannot be made (EXDEV); put --views-dir on the library's mount (for example inside the same home directory), and under systemd use BindPaths= of the home rather than StateDirectory=."
        case .viewsInsideLibrary(let library, let views):
            "The views directory \(views) and the library \(library) overlap; put the views outside the library, for example in ~/.local/share/photolibd/views."
        case .viewsDirectoryNotOurs(let path):
            "The views directory \(path) is not empty and was not made by photolibd (it has no .photolibd-views marker); pass --views-dir with an empty or new directory."
        case .clonesUnsupported(let views, let filesystem, let reason):
            "view_mode is \"clones\", but the views directory \(views) is on \(filesystem), which cannot clone files (\(reason)). Put the library and views on btrfs or on XFS made with reflink (mkfs.xfs -m reflink=1, its default), or set view_mode = \"auto\" (clones where possible, hard links elsewhere) or \"links\" in the configuration file."
        case .cannotCreateDirectory(let path, let errno):
            "Cannot create the directory \(path): \(Self.describe(errno)); check that the parent exists and is writable by this user."
        case .socketInUse(let path):
            "Another photolibd is already listening on \(path); stop it first, or pass --socket with another path."
        case .stateInUse(let path):
            "Another photolibd already uses the state directory \(path); stop it first (photolibctl status shows its pid), or pass --state-dir with another directory."
        case .socketFailed(let path, let errno):
            "Cannot listen on the socket \(path): \(Self.describe(errno)); check the directory exists and is writable, or pass --socket."
        case .socketPathTooLong(let path, let bytes, let endpoint):
            endpoint
                ? "An app's endpoint would be \(path), \(bytes) bytes long, and a Unix socket's path may have at most \(SocketPathRule.maximumBytes); endpoints go beside the main socket, so pass --socket in a directory with a shorter path (for example $XDG_RUNTIME_DIR)."
                : "The socket path \(path) is \(bytes) bytes long, and a Unix socket's path may have at most \(SocketPathRule.maximumBytes); pass --socket with a shorter path (for example in $XDG_RUNTIME_DIR)."
        case .configurationFileMissing(let path):
            "The configuration file \(path) does not exist; give the path of an existing file to --config (config/photolibd.toml is a documented template), or leave --config out to use ~/.config/photolibd/photolibd.toml or the defaults."
        case .databaseFailed(let path, let detail):
            "The state database \(path) cannot be used (\(detail)); check --state-dir is writable, or move the damaged file aside to start afresh."
        case .configurationInvalid(let file, let line, let key, let reason):
            "\(file)\(line.map { ":\($0)" } ?? "")\(key.map { ": key '\($0)'" } ?? ""): \(reason); fix the file (config/photolibd.toml documents every key) or start without --config."
        case .systemCall(let name, let path, let errno):
            "\(name) failed on \(path): \(Self.describe(errno))."
        case .helperMissing(let name, let places):
            "\(name), which photolibd starts itself, is not an executable at \(places.joined(separator: " or ")); reinstall photolibd (make install, or its package), or build it with make build."
        case .helperUntrusted(let path, let reason):
            "\(path) is \(reason); photolibd runs only a helper owned by root or by the user it runs as, writable by no one else: reinstall photolibd, or fix the file's owner and mode (chown root:root, chmod 755)."
        case .stopping:
            "photolibd was asked to stop while this was under way: what is recorded stands, and the rest of the work (views, scans) is finished at its next start; run the command again once it is back."
        case .daemonNotRunning(let socket):
            "photolibd is not running (nothing listens on \(socket)); start it with 'photolibd' (or 'systemctl --user start photolibd'), or point --socket / PHOTOLIBD_SOCKET at its socket."
        case .connectionLost:
            "The connection to photolibd was lost before it answered; check 'photolibctl status' and the daemon's log."
        case .remote(_, let message):
            message
        case .protocolMismatch(let detail):
            "photolibd answered in a form this photolibctl does not understand (\(detail)); use a photolibctl of the same version as the daemon."
        }
    }

    public var description: String { message }

    /// strerror(3)'s wording, without importing libc into the pure core.
    public static func describe(_ errno: Int32) -> String {
        let known: [Int32: String] = [
            1: "operation not permitted (EPERM)", 2: "no such file or directory (ENOENT)",
            13: "permission denied (EACCES)", 17: "file exists (EEXIST)", 18: "invalid cross-device link (EXDEV)",
            20: "not a directory (ENOTDIR)", 21: "is a directory (EISDIR)", 24: "too many open files (EMFILE)",
            28: "no space left on device (ENOSPC)", 30: "read-only file system (EROFS)", 36: "file name too long (ENAMETOOLONG)",
            39: "directory not empty (ENOTEMPTY)", 40: "too many levels of symbolic links (ELOOP)",
            98: "address already in use (EADDRINUSE)", 111: "connection refused (ECONNREFUSED)",
        ]
        return known[errno] ?? "error \(errno)"
    }
}
