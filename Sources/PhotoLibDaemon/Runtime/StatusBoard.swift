import PhotoLibCore
import Synchronization

/// Live figures about the daemon, readable from any thread without waiting for the engine.
///
/// The engine may be busy for seconds in a first scan; `status` must still
/// answer at once and show progress, so it reads here rather than asking the engine.
public final class StatusBoard: Sendable {
    public enum Phase: String, Sendable {
        case starting, scanning, ready, libraryMissing
    }

    public struct Snapshot: Sendable {
        public var phase: Phase = .starting
        public var scannedDirectories = 0
        public var scannedFiles = 0
        public var watches = 0
        public var failedWatches = 0
        /// Directories the watcher could not watch (each with everything below it): rounds follow them.
        public var unwatched: Set<RelativePath> = []
        /// Verification rounds, while something needs them: why, over what, how often, the last one.
        public var rounds: RoundsSummary?
        /// A network library's server away, since when and why (`LibraryReach`).
        public var outage: LibraryOutage?
        /// Library paths that cannot be read now (their assets are kept as they were).
        public var unreadable: [RelativePath] = []
        /// Derivatives without location on disk, and their bytes.
        public var derivatives = 0
        public var derivativeBytes: Int64 = 0
        /// Files withheld from apps without location: whether they hold one cannot be told.
        public var withheldFromNoLocation = 0
        /// Why nothing reads the library's inotify events now (`photolibd-inotify` cannot be started), if so.
        public var watcherDown: String?
        /// Hard links or clones, and why (decided once at start).
        public var viewMode: ViewModeDecision?
        /// Whether views can be served through FUSE here, and if not why (probed once at start).
        public var fuse: FuseSupport?
        /// How each limited Flatpak app's Pictures folder holds its photos, as decided this run.
        public var picturesForms: [AppID: PicturesFolderForm] = [:]

        public init() {}

        /// What `status` reports: `unavailable` once ready while a network library's server does not
        /// answer; `degraded` once ready while part of the library is not watched or cannot be read, or
        /// nothing reads its events, so a person sees that changes there are missed.
        public var reportedState: String {
            guard phase == .ready else { return phase.rawValue }
            if outage != nil { return "unavailable" }
            return failedWatches > 0 || !unreadable.isEmpty || watcherDown != nil ? "degraded" : phase.rawValue
        }
    }

    private let state = Mutex(Snapshot())

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0 } }

    public func update(_ body: (inout Snapshot) -> Void) {
        state.withLock { body(&$0) }
    }
}

/// What `status` says of verification rounds.
public struct RoundsSummary: Sendable, Equatable {
    /// Why rounds run, in words (`RoundCoverage.description`).
    public var reason: String
    public var directories: Int
    /// Files whose own stat the last round compared with the index.
    public var files: Int
    /// Seconds between rounds as the schedule stands (longer while nothing changes).
    public var intervalSeconds: Int
    /// When the last round ended (seconds since the epoch), and how long it took.
    public var lastRoundAt: Int64
    public var lastRoundMilliseconds: Int
    /// Why the last round could not look at everything, if so.
    public var lastFailure: String?

    public init(reason: String, directories: Int, files: Int, intervalSeconds: Int, lastRoundAt: Int64, lastRoundMilliseconds: Int,
                lastFailure: String?) {
        self.reason = reason
        self.directories = directories
        self.files = files
        self.intervalSeconds = intervalSeconds
        self.lastRoundAt = lastRoundAt
        self.lastRoundMilliseconds = lastRoundMilliseconds
        self.lastFailure = lastFailure
    }
}
