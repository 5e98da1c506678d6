/// The directories photolibd makes and keeps at start (SPEC §4, §7), and the
/// rules they must meet: what each is made as, what others may do there, and
/// how the library and the views must stand to each other.
public enum DaemonDirectories {
    /// Who may do what in one of the daemon's directories, once made.
    public enum Access: Sendable, Equatable {
        /// The daemon's alone (0700 when it makes it): its state.
        case privateToTheDaemon
        /// Entered by name, not listed (0711): views, inboxes and endpoints, where
        /// each app reaches its own by its random name and cannot see which others exist.
        case reachedByName

        public var mode: UInt32 {
            switch self {
            case .privateToTheDaemon: 0o700
            case .reachedByName: 0o711
            }
        }
    }

    /// Each directory to make, in order, and its access once made. Every one is
    /// made 0700 first, so none is open for a moment before it holds what it should.
    public static func plan(state: String, views: String, inboxes: String, endpoints: String) -> [(path: String, access: Access)] {
        [(state, .privateToTheDaemon), (views, .reachedByName), (inboxes, .reachedByName), (endpoints, .reachedByName)]
    }

    /// Whether `path` is `ancestor` or below it (both absolute, canonical).
    public static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        path == ancestor || path.hasPrefix(ancestor.hasSuffix("/") ? ancestor : ancestor + "/")
    }

    /// The library and the views must not hold each other: the daemon would index
    /// its own views, or delete the library's files as strays in a view.
    /// The paths are compared as the kernel resolves them (`canonical`), the error names them as given.
    public static func checkApart(library: String, views: String, canonicalLibrary: String, canonicalViews: String) throws(PhotoLibError) {
        if isWithin(canonicalViews, canonicalLibrary) || isWithin(canonicalLibrary, canonicalViews) {
            throw .viewsInsideLibrary(library: library, views: views)
        }
    }

    /// Of the directories made above the views and inboxes, those an app's uid must be
    /// let through to reach its own (the views and inboxes themselves excluded: they are 0711 for everyone).
    public static func letThrough(made: [String], reached: [String]) -> [String] {
        made.filter { directory in reached.contains { $0 != directory && isWithin($0, directory) } }
    }
}
