/// What each inotify event on an app's view means for the access report
/// (SPEC §9): an open to count, or a change to the watches that follow the view.
///
/// inotify reports an open to the watch on the directory the opener went
/// through, so every directory of a view is watched; a directory made in the
/// view is watched as it comes, and one moved means the view is walked again
/// (the paths of every watch below it changed). The watcher thread only reads
/// events, adds and removes watches, and passes on the opens this names.
public enum ViewOpenTranslator {
    /// A watched directory: which app's view, and where in it.
    public struct Watched: Sendable, Equatable {
        public let app: AppID
        /// Relative to the view.
        public let directory: RelativePath

        public init(app: AppID, directory: RelativePath) {
            self.app = app
            self.directory = directory
        }
    }

    /// What the watcher does for one event.
    public enum Action: Sendable, Equatable {
        /// The kernel dropped events: opens were lost, and the report misses them.
        case lost
        /// The watch is gone (its directory went): forget it.
        case forget
        /// A directory was made in the view: watch it and everything below it.
        case walk(AppID, RelativePath)
        /// A directory moved in or out: watch the app's view again from the top.
        case rewalk(AppID)
        /// An entry was opened: one line of the report, once `ViewOpen` has judged it.
        case opened(AppID, RelativePath)
    }

    /// What `event` means, given what its watch watches (nil: a watch not known,
    /// or forgotten meanwhile); nil when it means nothing for the report.
    public static func action(for event: WatchTranslator.Raw, watched: Watched?) -> Action? {
        if event.flags.contains(.queueOverflow) { return .lost }
        if event.flags.contains(.ignored) { return .forget }
        guard let watched, let name = FileName(bytes: event.name) else { return nil }
        if event.flags.contains(.isDirectory) {
            if !event.flags.isDisjoint(with: [.movedFrom, .movedTo]) { return .rewalk(watched.app) }
            if event.flags.contains(.create) { return .walk(watched.app, watched.directory.appending(name)) }
            return nil
        }
        return event.flags.contains(.open) ? .opened(watched.app, watched.directory.appending(name)) : nil
    }
}
