import Foundation
public import PhotoLibCore
import PhotoLibSystem
import TOMLKit

/// The settings a TOML configuration file may give; every key is optional.
///
/// Unknown keys and wrong types stop start-up with the file, line and key
/// named: a typo must never silently fall back to a default.
public struct ConfigurationFile: Sendable, Equatable {
    public var library: String?
    public var viewsDirectory: String?
    public var stateDirectory: String?
    public var socket: String?
    public var imageExtensions: [String]?
    public var videoExtensions: [String]?
    public var historyRetention: Int?
    public var maxConnections: Int?
    public var maxConnectionsPerUID: Int?
    public var idleTimeoutSeconds: Int?
    public var inboxesDirectory: String?
    public var importAlbum: String?
    public var inboxMaxFileBytes: Int?
    public var inboxDailyBytes: Int?
    public var inboxDailyFiles: Int?
    /// `[report] retention`: how long the access report keeps what apps opened, in seconds.
    public var reportRetention: Int64?
    /// `[report] watch_opens`: false turns off watching the views for opens.
    public var reportWatchOpens: Bool?
    /// `view_mode`: "links", "clones" or "auto".
    public var viewMode: ViewModeSetting?
    /// `fuse_views`: false keeps a limited Flatpak app's Pictures folder as copies where it cannot clone.
    public var fuseViews: Bool?
    /// `verify_interval`: seconds between verification rounds where inotify cannot follow the library.
    public var verifyInterval: Int?

    static let topLevelKeys: Set<String> = ["library", "views_dir", "view_mode", "fuse_views", "verify_interval", "state_dir", "socket", "assets", "protocol", "inbox", "report"]
    static let reportKeys: Set<String> = ["retention", "watch_opens"]
    static let assetKeys: Set<String> = ["image_extensions", "video_extensions"]
    static let inboxKeys: Set<String> = ["dir", "album", "max_file_bytes", "daily_bytes", "daily_files"]
    static let protocolKeys: Set<String> = ["history_retention", "max_connections", "max_connections_per_uid", "idle_timeout_seconds"]

    public static func load(path: String) throws(PhotoLibError) -> ConfigurationFile {
        let found: FileStatus?
        do {
            found = try PathInspection.lookUp(path)
        } catch {
            // A directory on the way this user may not enter is not a missing file.
            throw .configurationInvalid(file: path, line: nil, key: nil, reason: "it cannot be reached (\(error)); check the permissions of its directories")
        }
        guard let status = found else { throw .configurationFileMissing(path: path) }
        guard status.kind != .directory else {
            throw .configurationInvalid(file: path, line: nil, key: nil, reason: "it is a directory, not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .configurationInvalid(file: path, line: nil, key: nil, reason: "the file cannot be read by this user")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .configurationInvalid(file: path, line: nil, key: nil, reason: "the file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(PhotoLibError) -> ConfigurationFile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .configurationInvalid(file: file, line: error.source.begin.line, key: nil, reason: "not valid TOML (\(error.description))")
        } catch {
            throw .configurationInvalid(file: file, line: nil, key: nil, reason: "not valid TOML")
        }
        func fail(_ key: String, _ reason: String) -> PhotoLibError {
            .configurationInvalid(file: file, line: lineOf(key, in: text), key: key, reason: reason)
        }
        func positive(_ key: String, in section: TOMLTable) throws(PhotoLibError) -> Int? {
            guard let value = section[key] else { return nil }
            guard let number = value.int, number > 0 else { throw fail(key, "must be a positive whole number") }
            return number
        }
        var result = ConfigurationFile()
        for key in table.keys where !topLevelKeys.contains(key) {
            throw fail(key, "unknown key (known: \(topLevelKeys.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String) throws(PhotoLibError) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string, !text.isEmpty else { throw fail(key, "must be a non-empty string") }
            return expandHome(text)
        }
        result.library = try string("library")
        result.viewsDirectory = try string("views_dir")
        result.stateDirectory = try string("state_dir")
        result.socket = try string("socket")
        if let value = table["view_mode"] {
            guard let text = value.string, let mode = ViewModeSetting(rawValue: text) else {
                throw fail("view_mode", "must be \"links\", \"clones\" or \"auto\" (clones where the filesystem can make them, hard links elsewhere)")
            }
            result.viewMode = mode
        }
        if let value = table["fuse_views"] {
            guard let flag = value.bool else { throw fail("fuse_views", "must be true or false") }
            result.fuseViews = flag
        }
        result.verifyInterval = try positive("verify_interval", in: table)
        if let assets = table["assets"] {
            guard let section = assets.table else { throw fail("assets", "must be a table ([assets])") }
            for key in section.keys where !assetKeys.contains(key) {
                throw fail(key, "unknown key in [assets] (known: \(assetKeys.sorted().joined(separator: ", ")))")
            }
            func list(_ key: String) throws(PhotoLibError) -> [String]? {
                guard let value = section[key] else { return nil }
                guard let array = value.array else { throw fail(key, "must be an array of extensions such as [\"jpg\", \"png\"]") }
                var out: [String] = []
                for element in array {
                    guard let ext = element.string, !ext.isEmpty, !ext.contains("."), !ext.contains("/") else {
                        throw fail(key, "every extension must be a string without dots, such as \"jpg\"")
                    }
                    out.append(ext)
                }
                return out
            }
            result.imageExtensions = try list("image_extensions")
            result.videoExtensions = try list("video_extensions")
        }
        if let protocolSection = table["protocol"] {
            guard let section = protocolSection.table else { throw fail("protocol", "must be a table ([protocol])") }
            for key in section.keys where !protocolKeys.contains(key) {
                throw fail(key, "unknown key in [protocol] (known: \(protocolKeys.sorted().joined(separator: ", ")))")
            }
            result.historyRetention = try positive("history_retention", in: section)
            result.maxConnections = try positive("max_connections", in: section)
            result.maxConnectionsPerUID = try positive("max_connections_per_uid", in: section)
            result.idleTimeoutSeconds = try positive("idle_timeout_seconds", in: section)
        }
        if let inboxSection = table["inbox"] {
            guard let section = inboxSection.table else { throw fail("inbox", "must be a table ([inbox])") }
            for key in section.keys where !inboxKeys.contains(key) {
                throw fail(key, "unknown key in [inbox] (known: \(inboxKeys.sorted().joined(separator: ", ")))")
            }
            if let value = section["dir"] {
                guard let text = value.string, !text.isEmpty else { throw fail("dir", "must be a non-empty string") }
                result.inboxesDirectory = expandHome(text)
            }
            if let value = section["album"] {
                guard let text = value.string, RelativePath(escaped: text).map({ !$0.isRoot && LibraryScope.isAlbum($0) }) == true else {
                    throw fail("album", "must be an album path inside the library, such as \"Imported\" (no leading slash, no hidden names)")
                }
                result.importAlbum = text
            }
            result.inboxMaxFileBytes = try positive("max_file_bytes", in: section)
            result.inboxDailyBytes = try positive("daily_bytes", in: section)
            result.inboxDailyFiles = try positive("daily_files", in: section)
        }
        if let reportSection = table["report"] {
            guard let section = reportSection.table else { throw fail("report", "must be a table ([report])") }
            for key in section.keys where !reportKeys.contains(key) {
                throw fail(key, "unknown key in [report] (known: \(reportKeys.sorted().joined(separator: ", ")))")
            }
            if let value = section["retention"] {
                guard let text = value.string else { throw fail("retention", "must be a duration in quotes, such as \"7d\"") }
                do {
                    result.reportRetention = try GrantEnd.parseDuration(text)
                } catch {
                    throw fail("retention", "'\(text)' is not a duration; write \"7d\", \"12h\" or \"2w\"")
                }
            }
            if let value = section["watch_opens"] {
                guard let flag = value.bool else { throw fail("watch_opens", "must be true or false") }
                result.reportWatchOpens = flag
            }
        }
        return result
    }

    /// Overrides the embedded defaults with what the file sets.
    public func apply(to configuration: inout DaemonConfiguration) {
        if let library {
            configuration.library = library
            configuration.libraryIsDefault = false
        }
        if let viewsDirectory { configuration.setViews(viewsDirectory) }
        if let stateDirectory { configuration.setState(stateDirectory) }
        if let socket { configuration.setSocket(socket) }
        if let historyRetention { configuration.historyRetention = historyRetention }
        if let maxConnections { configuration.limits.maxConnections = maxConnections }
        if let maxConnectionsPerUID { configuration.limits.maxConnectionsPerUID = maxConnectionsPerUID }
        if let idleTimeoutSeconds { configuration.limits.idleTimeoutSeconds = idleTimeoutSeconds }
        if let inboxesDirectory { configuration.setInboxes(inboxesDirectory) }
        if let importAlbum, let path = RelativePath(escaped: importAlbum) { configuration.importAlbum = path }
        if let inboxMaxFileBytes { configuration.inboxLimits.maxFileBytes = Int64(inboxMaxFileBytes) }
        if let inboxDailyBytes { configuration.inboxLimits.dailyBytes = Int64(inboxDailyBytes) }
        if let inboxDailyFiles { configuration.inboxLimits.dailyFiles = inboxDailyFiles }
        if let reportRetention { configuration.reportRetention = reportRetention }
        if let reportWatchOpens { configuration.reportWatchesOpens = reportWatchOpens }
        if let viewMode { configuration.viewMode = viewMode }
        if let fuseViews { configuration.fuseViews = fuseViews }
        if let verifyInterval { configuration.verifyIntervalSeconds = verifyInterval }
        if imageExtensions != nil || videoExtensions != nil {
            configuration.namePolicy = AssetNamePolicy(
                imageExtensions: imageExtensions ?? AssetNamePolicy.defaultImageExtensions,
                videoExtensions: videoExtensions ?? AssetNamePolicy.defaultVideoExtensions)
        }
    }

    /// The first line that assigns `key`, for error messages.
    static func lineOf(_ key: String, in text: String) -> Int? {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix(key), trimmed.dropFirst(key.count).drop(while: { $0 == " " }).hasPrefix("=") {
                return number + 1
            }
            if trimmed.hasPrefix("[\(key)]") { return number + 1 }
        }
        return nil
    }

    static func expandHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (ProcessIdentity.homeDirectory ?? "") + path.dropFirst()
    }
}

/// Command-line overrides: the last word.
public struct CommandLineOverrides: Sendable {
    public var library: String?
    public var views: String?
    public var state: String?
    public var socket: String?

    public init(library: String?, views: String?, state: String?, socket: String?) {
        self.library = library
        self.views = views
        self.state = state
        self.socket = socket
    }
}

extension DaemonConfiguration {
    /// Applies flags over whatever the defaults and config file gave; relative paths become absolute.
    public mutating func apply(flags: CommandLineOverrides) {
        if let library = flags.library {
            self.library = library
            libraryIsDefault = false
        }
        if let views = flags.views { setViews(views) }
        if let state = flags.state { setState(state) }
        if let socket = flags.socket { setSocket(socket) }
        let cwd = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        library = absolute(library)
        views = absolute(views)
        state = absolute(state)
        socket = absolute(socket)
    }
}
