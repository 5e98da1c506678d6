import Logging
import PhotoLibCore
import PhotoLibSystem
import Synchronization

/// Watches every app's view for opens, on a thread of its own, for the access
/// report (SPEC §9), doing what `ViewOpenTranslator` says each event means.
///
/// An open of the same file through the library (or another app's view) is
/// not counted here: inotify tells the watch the opener went through. Opens go
/// to `opens` in batches, one per read, with the wall-clock second they were read.
final class ViewOpenWatcher: Sendable {
    /// An entry of an app's view was opened.
    struct Open: Sendable {
        let app: AppID
        /// Relative to the view.
        let path: RelativePath
        /// Seconds since the epoch.
        let at: Int64
    }

    private struct State {
        var watches: [WatchDescriptor: ViewOpenTranslator.Watched] = [:]
        /// Each watched app's view directory, open.
        var roots: [AppID: FileDescriptor] = [:]
    }

    let opens: AsyncStream<[Open]>
    private let continuation: AsyncStream<[Open]>.Continuation
    private let inotify: InotifyThread
    private let state = Mutex(State())
    private let logger: Logger
    private let clock: any WallClock

    init(logger: Logger, clock: any WallClock) throws(SystemCallError) {
        self.clock = clock
        inotify = try InotifyThread()
        (opens, continuation) = AsyncStream.makeStream(of: [Open].self)
        self.logger = logger
    }

    /// Watches exactly these apps' views (view directory paths), walking each
    /// new one; the views of apps not named are no longer watched. With
    /// `skippingMissing`, a view not made yet is left for the next call, unsaid.
    func sync(_ views: [AppID: String], skippingMissing: Bool = false) {
        let gone = state.withLock { state -> [WatchDescriptor] in
            let leaving = Set(state.roots.keys).subtracting(views.keys)
            for app in leaving { state.roots.removeValue(forKey: app)?.close() }
            let watches = state.watches.filter { leaving.contains($0.value.app) }.map(\.key)
            for watch in watches { state.watches[watch] = nil }
            return watches
        }
        for watch in gone { inotify.removeWatch(watch) }
        for (app, path) in views where state.withLock({ $0.roots[app] == nil }) {
            do {
                let root = try Directory.open(path: path)
                state.withLock { $0.roots[app] = root }
                walk(app, .root)
            } catch where skippingMissing && error.isNotFound {
                continue
            } catch {
                logger.warning("Cannot watch the view of \(app) at \(path) for the access report: \(error). Its opens are not reported until the next start.")
            }
        }
    }

    /// Watches a view directory and every directory below it.
    private func walk(_ app: AppID, _ directory: RelativePath) {
        guard let root = state.withLock({ $0.roots[app] }) else { return }
        let fd: FileDescriptor
        do {
            fd = try Directory.open(directory, in: root)
        } catch {
            return  // gone meanwhile: its parent's event says so
        }
        defer { fd.close() }
        // One filesystem per view: where a directory's link count tells its sub-directories, a leaf
        // (most of a view's directories) is not listed.
        let filesystem = try? FileClone.filesystem(of: fd)
        walk(app, directory, fd, on: filesystem)
    }

    /// Watches the open directory `fd`, at `directory` in the app's view, then each directory below it,
    /// each opened from its parent.
    private func walk(_ app: AppID, _ directory: RelativePath, _ fd: FileDescriptor, on filesystem: FilesystemKind?) {
        do {
            let watch = try inotify.addWatch(fd, mask: .viewDirectory)
            state.withLock { $0.watches[watch] = ViewOpenTranslator.Watched(app: app, directory: directory) }
        } catch {
            logger.warning("Cannot watch \(directory.escaped) in the view of \(app) for the access report: \(error); raise fs.inotify.max_user_watches.")
            return
        }
        // Looked at after the watch is placed, as the listing is: a directory made after either is its watch's event.
        if let filesystem, let status = try? Directory.status(of: fd), filesystem.provesNoSubdirectories(linkCount: status.linkCount) { return }
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.listDirectories(fd)
        } catch {
            return
        }
        for entry in entries where entry.kind == .directory || (entry.kind == .unknown && isDirectory(entry.name, in: fd, of: app, at: directory)) {
            let child: FileDescriptor
            do {
                child = try Directory.open(entry.name, in: fd)
            } catch {
                continue  // gone (or replaced) meanwhile: its parent's event says so
            }
            walk(app, directory.appending(entry.name), child, on: filesystem)
            child.close()
        }
    }

    /// Whether an entry a filesystem listed without its kind is a directory: one gone since the
    /// listing is not; one that cannot be looked at is not walked, and said.
    private func isDirectory(_ name: FileName, in directory: FileDescriptor, of app: AppID, at path: RelativePath) -> Bool {
        do {
            return try Directory.status(of: name, in: directory)?.kind == .directory
        } catch {
            logger.warning("Cannot look at \(path.appending(name).escaped) in the view of \(app) for the access report: \(error); opens below it are not reported.")
            return false
        }
    }

    /// Walks an app's view again from the top (its directories moved).
    private func rewalk(_ app: AppID) {
        let old = state.withLock { state -> [WatchDescriptor] in
            let watches = state.watches.filter { $0.value.app == app }.map(\.key)
            for watch in watches { state.watches[watch] = nil }
            return watches
        }
        for watch in old { inotify.removeWatch(watch) }
        walk(app, .root)
    }

    /// Starts the watching thread; the `opens` stream ends once it stops.
    func start() throws(SystemCallError) {
        let lostReported = Atomic<Bool>(false)
        try inotify.start(name: "photolibd-opens", { [self] events in
            let now = clock.now()
            var batch: [Open] = []
            var moved = Set<AppID>()
            for event in events {
                switch ViewOpenTranslator.action(for: WatchTranslator.Raw(event), watched: state.withLock({ $0.watches[event.watch] })) {
                case .lost:
                    if !lostReported.exchange(true, ordering: .relaxed) {
                        logger.warning("Some opens in the views were lost (the inotify queue overflowed); the access report misses them.")
                    }
                case .forget: state.withLock { _ = $0.watches.removeValue(forKey: event.watch) }
                case .walk(let app, let directory): walk(app, directory)
                case .rewalk(let app): moved.insert(app)
                case .opened(let app, let path): batch.append(Open(app: app, path: path, at: now))
                case nil: continue
                }
            }
            for app in moved { rewalk(app) }
            if !batch.isEmpty { continuation.yield(batch) }
        }, failed: { [logger] error in
            logger.error("Cannot read the views' inotify instance: \(error). Opens meanwhile may be missing from the access report.")
        }, finished: { [continuation] in continuation.finish() })
    }

    func stop() {
        inotify.stop()
    }
}
