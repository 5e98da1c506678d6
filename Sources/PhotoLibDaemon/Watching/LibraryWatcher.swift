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
/// - `IN_Q_OVERFLOW` rebuilds every watch and asks for a full rescan; the root
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
    /// The inotify instance, or why there is none; the thread takes it at start.
    ///
    /// Made here rather than on the thread, so its descriptor is among the
    /// process's first: libinotifytools waits with select(), which cannot take
    /// a descriptor of 1024 or more, and the socket (made after this) opens a
    /// descriptor per client as soon as it listens.
    private let source: Mutex<Result<InotifySource, SystemCallError>?>

    /// - Throws: `PhotoLibError.systemCall` when no eventfd can be made.
    init(libraryPath: String, queue: EventQueue, board: StatusBoard, logger: Logger) throws(PhotoLibError) {
        do {
            wakeup = try Wakeup()
        } catch {
            throw .systemCall(name: error.call, path: "the watcher's wakeup", errno: error.errno)
        }
        let made: Result<InotifySource, SystemCallError>
        do {
            made = .success(try InotifySource())
        } catch {
            made = .failure(error)
        }
        source = Mutex(made)
        self.libraryPath = libraryPath
        self.queue = queue
        self.board = board
        self.logger = logger
    }

    /// Starts the watcher thread. Errors setting up inotify itself are reported through the queue as `.rootGone`.
    func start() {
        let thread = Thread { [self] in
            switch source.withLock({ $0.take() }) {
            case .success(let source)?:
                var loop = WatchLoop(source: source, wakeup: wakeup, libraryPath: libraryPath, queue: queue, board: board, logger: logger)
                loop.run(until: { self.stopping.load(ordering: .relaxed) },
                         rewatch: { self.rewatching.exchange(false, ordering: .relaxed) })
            case .failure(let error)?:
                logger.critical("Cannot start inotify: \(error). Raise fs.inotify.max_user_instances, or stop other inotify users.")
                queue.push(.rootGone)
            case nil:
                return  // started twice: the first thread owns the instance
            }
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
