import Foundation
import Glibc
import Logging
import PhotoLibCore
import PhotoLibSystem
import Synchronization

/// Watches the library tree with inotify, on one dedicated thread, and reports `WatchEvent`s.
///
/// - A directory's watch is added *before* it is listed, so a file created in
///   a new directory is either in the listing or produces an event: never lost.
/// - Paths come from the watcher's own `WatchTree`, not libinotifytools' tables.
/// - `IN_MOVED_FROM`/`IN_MOVED_TO` pair by cookie; an unpaired half means the
///   entry left (or entered) the library.
/// - `IN_Q_OVERFLOW` rebuilds every watch and asks for a full rescan, and so
///   does a `photolibd-inotify` that ended (replaced at once); the root
///   disappearing reports `.rootGone` and waits for it to come back.
final class LibraryWatcher: Sendable {
    private let libraryPath: String
    private let queue: EventQueue
    private let board: StatusBoard
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let rewatching = Atomic<Bool>(false)
    /// Wakes the thread from its wait on inotify for a rewatch or a stop.
    private let wakeup: Wakeup
    /// `photolibd-inotify`, which makes and reads libinotifytools' instance for the watcher.
    private let helperExecutable: String

    /// - Throws: `PhotoLibError.systemCall` when no eventfd can be made.
    init(libraryPath: String, helperExecutable: String, queue: EventQueue, board: StatusBoard, logger: Logger) throws(PhotoLibError) {
        do {
            wakeup = try Wakeup()
        } catch {
            throw .systemCall(name: error.call, path: "the watcher's wakeup", errno: error.errno)
        }
        self.libraryPath = libraryPath
        self.helperExecutable = helperExecutable
        self.queue = queue
        self.board = board
        self.logger = logger
    }

    /// Starts the watcher thread. Errors setting up inotify itself are reported through the queue as `.rootGone`.
    func start() {
        let thread = Thread { [self] in
            // Started on this thread, which lives as long as the daemon: the helper dies with the
            // thread that started it (PR_SET_PDEATHSIG), never with a pool thread that retires.
            let source: InotifySource
            do {
                source = try InotifySource(.helper(executable: helperExecutable))
            } catch {
                logger.critical("Cannot start inotify (\(helperExecutable)): \(error). Raise fs.inotify.max_user_instances, or stop other inotify users; if photolibd-inotify is missing, reinstall photolibd.")
                queue.push(.rootGone)
                return
            }
            var loop = WatchLoop(source: source, wakeup: wakeup, libraryPath: libraryPath, queue: queue, board: board, logger: logger)
            loop.run(until: { self.stopping.load(ordering: .relaxed) },
                     rewatch: { self.rewatching.exchange(false, ordering: .relaxed) })
        }
        thread.name = "photolibd-watcher"
        // Deep trees are walked recursively; nesting near PATH_MAX needs room.
        thread.stackSize = 64 << 20
        thread.start()
    }

    /// Asks the thread to drop every watch and watch the whole tree again, then
    /// report `.watchesReady`, which makes the engine rescan.
    /// This is how `photolibctl rescan` retries directories whose watch failed
    /// (after fs.inotify.max_user_watches was raised).
    func requestRewatch() {
        rewatching.store(true, ordering: .relaxed)
        wakeup.signal()
    }

    /// Asks the thread to stop.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        wakeup.signal()
    }
}
