import Foundation
import Glibc
import Logging
import PhotoLibCore
import PhotoLibSystem
import Synchronization

/// The watcher thread's state. Not `Sendable`: it lives and dies on that thread.
///
/// What each event means is `WatchTranslator`'s to say (core); this type reads
/// the kernel's events, carries out the translator's actions (watches added and
/// dropped, events queued), and sets the watches up.
struct WatchLoop {
    let source: InotifySource
    let wakeup: Wakeup
    let libraryPath: String
    let queue: EventQueue
    let board: StatusBoard
    let logger: Logger

    private var tree = WatchTree()
    private var root: FileDescriptor?
    private var translator = WatchTranslator()
    private var failedWatches = 0
    /// Directories that got no watch (each with everything below it): verification rounds follow them.
    private var unwatched = Set<RelativePath>()

    init(source: InotifySource, wakeup: Wakeup, libraryPath: String, queue: EventQueue, board: StatusBoard, logger: Logger) {
        self.source = source
        self.wakeup = wakeup
        self.libraryPath = libraryPath
        self.queue = queue
        self.board = board
        self.logger = logger
    }

    mutating func run(until shouldStop: () -> Bool, rewatch: () -> Bool) {
        setUp()
        var idlePolls = 0
        while !shouldStop() {
            if rewatch() {
                flushPendingMove()
                setUp()
                continue
            }
            if root == nil {
                // The library is gone: drain what is left, and look for it once a second.
                if source.next() == nil {
                    _ = source.wait(orWakeup: wakeup, timeoutMilliseconds: 1000)
                    if ProcessIdentity.isDirectory(libraryPath) { setUp() }
                }
                continue
            }
            if let event = source.next() {
                idlePolls = 0
                handle(event)
            } else if translator.hasPendingMove {
                // With half a rename pending, poll without blocking for a
                // moment: the other half is normally already queued.
                idlePolls += 1
                if idlePolls > 20 {
                    flushPendingMove()
                } else {
                    usleep(100)
                }
            } else {
                _ = source.wait(orWakeup: wakeup)
                reportHelperRestarts()
            }
        }
        tearDown()
    }

    /// Logs what happened to `photolibd-inotify` since the last look; true when one was replaced
    /// (its instance, and every watch, went with it: the caller rebuilds them and rescans).
    @discardableResult
    private func reportHelperRestarts() -> Bool {
        var replaced = false
        for restart in source.takeHelperRestarts() {
            let after = restart.lifetime.map { String(format: " %.1f s after it started", $0) } ?? ""
            let ended = restart.cause.map { "photolibd-inotify: \($0)\(after)" }
                ?? restart.ending.map { "photolibd-inotify \($0)\(after)" }
                ?? "photolibd-inotify was not running"
            let wait = restart.retryIn.map { String(format: "%.0f s", $0) } ?? ""
            if let failure = restart.failure {
                logger.critical("\(ended), and another cannot be started: \(failure). Changes to the library go unseen until one can; trying again in \(wait). If photolibd-inotify is missing, reinstall photolibd.")
                board.update { $0.watcherDown = "photolibd-inotify cannot be started (\(failure)); next try in \(wait)" }
            } else if restart.retryIn != nil {
                logger.critical("\(ended), \(restart.quickEnds) time\(restart.quickEnds == 1 ? "" : "s") in a row soon after its start; the next starts in \(wait), waiting twice as long each time it ends so soon (up to a minute). Changes to the library go unseen meanwhile; its log lines above say why it ends.")
                board.update { $0.watcherDown = "photolibd-inotify keeps ending soon after it starts (\(restart.quickEnds) times; last: \(ended)); next try in \(wait)" }
            } else {
                logger.error("\(ended); started another. Rebuilding watches and rescanning the library, as after an inotify overflow.")
                board.update { $0.watcherDown = nil }
                replaced = true
            }
        }
        return replaced
    }

    /// Logs the reads and waits that failed since the last look; true when there were any
    /// (each made `next` give an overflow: the caller rebuilds the watches and rescans).
    private func reportReadFailures() -> Bool {
        let failures = source.takeReadFailures()
        for failure in failures {
            logger.error("Cannot read the library's inotify events: \(failure). Rescanning the library, as after an inotify overflow.")
        }
        return !failures.isEmpty
    }

    // MARK: Setting up watches

    private mutating func setUp() {
        tearDown()
        let rootFD: FileDescriptor
        do {
            rootFD = try Directory.open(path: libraryPath)
        } catch {
            logger.error("Cannot open the library \(libraryPath): \(error); waiting for it to appear.")
            queue.push(.rootGone)
            return
        }
        do {
            tree.setRoot(try source.addWatch(rootFD).rawValue)
        } catch {
            // The library is there: a watch refused (no photolibd-inotify running, the watch limit) is not
            // a library gone. It stays as indexed; the next helper's start, or a rescan, sets the watches up.
            rootFD.close()
            logger.error("Cannot watch the library \(libraryPath): \(error). Its changes go unseen until the watches can be set up again.")
            failedWatches = 1
            unwatched = [.root]
            publishWatchCounts()
            queue.push(.watchFailed(.root, errno: error.errno))
            // The scan a rewatch asks for still runs (a rescan waits for it): the library is read, only not followed.
            queue.push(.watchesReady(failedDirectories: 1))
            return
        }
        root = rootFD
        failedWatches = 0
        unwatched = []
        watchSubtree(of: rootFD, key: tree.root!, path: .root)
        publishWatchCounts()
        queue.push(.watchesReady(failedDirectories: failedWatches))
    }

    private mutating func tearDown() {
        if let rootKey = tree.root {
            for key in tree.detach(rootKey) {
                source.removeWatch(WatchDescriptor(rawValue: key))
            }
        }
        tree = WatchTree()
        root?.close()
        root = nil
        translator.reset()
    }

    /// Adds watches to every directory below `directory` (already watched as `key`).
    private mutating func watchSubtree(of directory: FileDescriptor, key: WatchTree.Key, path: RelativePath) {
        let entries: [DirectoryEntry]
        do {
            // Only sub-directories are watched: the files' names (most of an album) are never copied.
            entries = try Directory.listDirectories(directory)
        } catch {
            return  // removed meanwhile: its deletion event follows
        }
        for entry in entries where LibraryScope.isAlbumName(entry.name) {
            switch entry.kind {
            case .directory, .unknown: break
            default: continue
            }
            watchChild(entry.name, of: directory, parentKey: key, parentPath: path)
        }
    }

    /// Opens, watches, then lists one child directory (in that order: see the type's comment).
    @discardableResult
    private mutating func watchChild(
        _ name: FileName, of parent: FileDescriptor, parentKey: WatchTree.Key, parentPath: RelativePath
    ) -> Bool {
        let child: FileDescriptor
        do {
            child = try Directory.open(name, in: parent)
        } catch {
            return false  // not a directory (or a symlink to one), or gone
        }
        defer { child.close() }
        let path = parentPath.appending(name)
        do {
            let key = try source.addWatch(child)
            tree.insert(key.rawValue, parent: parentKey, name: name)
            watchSubtree(of: child, key: key.rawValue, path: path)
            return true
        } catch {
            failedWatches += 1
            unwatched.insert(path)
            if failedWatches <= 3 {
                logger.error("Cannot watch \(path): \(error). Changes there are missed until a rescan; if this is ENOSPC, raise the sysctl fs.inotify.max_user_watches.")
            }
            queue.push(.watchFailed(path, errno: error.errno))
            return false
        }
    }

    /// Watches a directory that just appeared under a watched one.
    private mutating func watchNewDirectory(_ name: FileName, parentKey: WatchTree.Key, parentPath: RelativePath) {
        guard let root else { return }
        let parent: FileDescriptor
        do {
            parent = try Directory.open(parentPath, in: root)
        } catch where error.isNotFound {
            return  // the parent went meanwhile: its deletion event follows
        } catch {
            failedWatches += 1
            unwatched.insert(parentPath.appending(name))
            logger.error("Cannot open \(parentPath) to watch its new directory \(name.escaped): \(error). Changes there are missed until a rescan.")
            queue.push(.watchFailed(parentPath.appending(name), errno: error.errno))
            return
        }
        defer { parent.close() }
        watchChild(name, of: parent, parentKey: parentKey, parentPath: parentPath)
        publishWatchCounts()
    }

    private func publishWatchCounts() {
        let (count, failed, unwatched) = (tree.count, failedWatches, unwatched)
        board.update {
            $0.watches = count
            $0.failedWatches = failed
            $0.unwatched = unwatched
        }
    }

    // MARK: Events

    private mutating func handle(_ event: InotifyEvent) {
        perform(translator.take(WatchTranslator.Raw(event), tree: &tree))
    }

    private mutating func flushPendingMove() {
        perform(translator.flush(tree: &tree))
    }

    private mutating func perform(_ actions: [WatchTranslator.Action]) {
        for action in actions {
            switch action {
            case .emit(let event):
                followUnwatched(event)
                queue.push(event)
            case .watch(let name, let parent, let parentPath):
                watchNewDirectory(name, parentKey: parent, parentPath: parentPath)
            case .unwatch(let keys):
                for key in keys { source.removeWatch(WatchDescriptor(rawValue: key)) }
                publishWatchCounts()
            case .rebuild:
                let failed = reportReadFailures()
                if !reportHelperRestarts(), !failed {
                    logger.warning("The kernel's inotify queue overflowed; rebuilding watches and rescanning the library.")
                }
                setUp()
            case .rootGone:
                rootGone()
            }
        }
    }

    /// Keeps the unwatched directories' paths as the library's own events move or remove them (a
    /// directory without a watch renamed under a watched parent keeps no watch, under its new name).
    private mutating func followUnwatched(_ event: WatchEvent) {
        guard !unwatched.isEmpty else { return }
        switch event {
        case .moved(let from, let to, isDirectory: true):
            let moved = unwatched.filter { $0.isWithin(from) }
            guard !moved.isEmpty else { return }
            unwatched.subtract(moved)
            for path in moved { unwatched.insert(to.appending(RelativePath(Array(path.components.dropFirst(from.components.count))))) }
        case .removed(let path, isDirectory: true):
            let gone = unwatched.filter { $0.isWithin(path) }
            guard !gone.isEmpty else { return }
            unwatched.subtract(gone)
            failedWatches = max(0, failedWatches - gone.count)
        default:
            return
        }
        publishWatchCounts()
    }

    private mutating func rootGone() {
        logger.error("The library \(libraryPath) was deleted, moved or unmounted; views are emptied until it is back.")
        tearDown()
        queue.push(.rootGone)
    }
}
