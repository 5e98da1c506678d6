import Logging
import PhotoLibCore
import PhotoLibSystem
import Synchronization

/// Watches every app's inbox for files that are complete, and every Flatpak app's
/// Pictures folder for any change the app makes there, on a thread of its own.
///
/// A file counts once it is closed after writing or moved in (SPEC §3), as in
/// the library. What it finds goes to `arrivals` in order; the engine takes
/// it from there. A lost event (`IN_Q_OVERFLOW`) asks for a sweep of every
/// inbox, which is also what the engine does at start.
final class InboxWatcher: Sendable {
    /// A file to look at, or (name nil) a whole inbox to sweep.
    struct Arrival: Sendable {
        let app: AppID
        let name: FileName?
        /// Only created: a regular file may still be being written (its close
        /// follows), but a symlink, FIFO or hard link sends nothing more.
        var onlyCreated = false
        /// The app's Flatpak Pictures folder changed: its view is reconciled (`takePicturesChanges`).
        var pictures = false
    }

    /// Every inbox needs a sweep (events were lost).
    static let everyInbox = AppID("photolibd.every-inbox")!

    let arrivals: AsyncStream<Arrival>
    private let continuation: AsyncStream<Arrival>.Continuation
    private let inotify: InotifyThread
    private let watches = Mutex<[WatchDescriptor: AppID]>([:])
    /// Watches of Flatpak Pictures folders, and the apps whose folder changed since the engine last looked.
    private let pictures = Mutex<(watches: [WatchDescriptor: AppID], changed: Set<AppID>)>(([:], []))
    private let logger: Logger

    init(logger: Logger) throws(SystemCallError) {
        inotify = try InotifyThread()
        (arrivals, continuation) = AsyncStream.makeStream(of: Arrival.self)
        self.logger = logger
    }

    /// Watches an app's inbox (an open directory); a second call for the same app replaces the first.
    func watch(_ app: AppID, _ directory: FileDescriptor) {
        do {
            let wd = try inotify.addWatch(directory, mask: [.closeWrite, .movedTo, .create, .onlyDirectory, .excludeUnlinked])
            watches.withLock { table in
                for (old, id) in table where id == app && old != wd { table[old] = nil }
                table[wd] = app
            }
        } catch {
            logger.error("Cannot watch the inbox of \(app): \(error). Files written there are taken only at the next start; raise fs.inotify.max_user_watches.")
        }
    }

    /// Watches a Flatpak app's Pictures folder for what the app writes, renames or deletes there;
    /// a second call for the same app replaces the first.
    func watchPictures(_ app: AppID, _ directory: FileDescriptor) {
        // Not IN_CREATE: a file still being written is looked at once it is closed.
        do {
            let wd = try inotify.addWatch(directory, mask: [.closeWrite, .movedTo, .movedFrom, .delete, .onlyDirectory])
            pictures.withLock { state in
                for (old, id) in state.watches where id == app && old != wd { state.watches[old] = nil }
                state.watches[wd] = app
            }
        } catch {
            logger.error("Cannot watch the Pictures folder of \(app): \(error). What it saves there is taken in, and what it deletes put back, only at the next start; raise fs.inotify.max_user_watches.")
        }
    }

    /// The apps whose Pictures folder changed since the last call. A burst of changes (the
    /// daemon's own placing included) comes to one reconcile, and one more for what changed meanwhile.
    func takePicturesChanges() -> Set<AppID> {
        pictures.withLock { state in
            defer { state.changed = [] }
            return state.changed
        }
    }

    /// Asks for every inbox to be looked at now (at start, and after a lost event).
    func sweepAll() {
        continuation.yield(Arrival(app: Self.everyInbox, name: nil))
    }

    /// Starts the watching thread; the `arrivals` stream ends once it stops.
    func start() throws(SystemCallError) {
        try inotify.start(name: "photolibd-inbox", { [self] events in
            for event in events { handle(event) }
        }, failed: { [logger] error in
            logger.error("Cannot read the inboxes' inotify instance: \(error). Looking through every inbox and Pictures folder again, as after an overflow.")
        }, finished: { [continuation] in continuation.finish() })
    }

    private func handle(_ event: InotifyEvent) {
        if event.mask.contains(.queueOverflow) { return sweepAll() }
        if event.mask.contains(.ignored) {
            watches.withLock { _ = $0.removeValue(forKey: event.watch) }
            pictures.withLock { _ = $0.watches.removeValue(forKey: event.watch) }
            return
        }
        let changed = pictures.withLock { state -> (app: AppID, first: Bool)? in
            guard let app = state.watches[event.watch] else { return nil }
            return (app, state.changed.insert(app).inserted)
        }
        if let changed {
            if changed.first { continuation.yield(Arrival(app: changed.app, name: nil, pictures: true)) }
            return
        }
        guard let app = watches.withLock({ $0[event.watch] }), let name = FileName(bytes: event.name) else { return }
        let onlyCreated = event.mask.isDisjoint(with: [.closeWrite, .movedTo])
        continuation.yield(Arrival(app: app, name: name, onlyCreated: onlyCreated))
    }

    func stop() {
        inotify.stop()
    }
}
