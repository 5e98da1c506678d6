import Foundation
import Glibc
import Logging
import PhotoLibCore
import PhotoLibSystem
import Synchronization

/// The watcher thread's state. Not `Sendable`: it lives and dies on that thread.
struct WatchLoop {
    private struct PendingMove {
        let cookie: UInt32
        let parent: WatchTree.Key
        let name: FileName
        let path: RelativePath
        let isDirectory: Bool
    }

    let source: InotifySource
    let wakeup: Wakeup
    let libraryPath: String
    let queue: EventQueue
    let board: StatusBoard
    let logger: Logger

    private var tree = WatchTree()
    private var root: FileDescriptor?
    private var pending: PendingMove?
    private var failedWatches = 0

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
                if source.next(timeoutSeconds: 0) == nil {
                    _ = source.wait(orWakeup: wakeup, timeoutMilliseconds: 1000)
                    if ProcessIdentity.isDirectory(libraryPath) { setUp() }
                }
                continue
            }
            if let event = source.next(timeoutSeconds: 0) {
                idlePolls = 0
                handle(event)
            } else if pending != nil {
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
            }
        }
        tearDown()
    }

    // MARK: Setting up watches

    private mutating func setUp() {
        tearDown()
        let rootFD: FileDescriptor
        do {
            rootFD = try Directory.open(path: libraryPath)
            let key = try source.addWatch(rootFD)
            tree.setRoot(key.rawValue)
        } catch {
            logger.error("Cannot watch the library \(libraryPath): \(error); waiting for it to appear.")
            queue.push(.rootGone)
            return
        }
        root = rootFD
        failedWatches = 0
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
        pending = nil
    }

    /// Adds watches to every directory below `directory` (already watched as `key`).
    private mutating func watchSubtree(of directory: FileDescriptor, key: WatchTree.Key, path: RelativePath) {
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.list(directory)
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
            logger.error("Cannot open \(parentPath) to watch its new directory \(name.escaped): \(error). Changes there are missed until a rescan.")
            queue.push(.watchFailed(parentPath.appending(name), errno: error.errno))
            return
        }
        defer { parent.close() }
        watchChild(name, of: parent, parentKey: parentKey, parentPath: parentPath)
        publishWatchCounts()
    }

    private func publishWatchCounts() {
        let (count, failed) = (tree.count, failedWatches)
        board.update {
            $0.watches = count
            $0.failedWatches = failed
        }
    }

    // MARK: Events

    private mutating func handle(_ event: InotifyEvent) {
        if event.mask.contains(.queueOverflow) {
            logger.warning("The kernel's inotify queue overflowed; rebuilding watches and rescanning the library.")
            pending = nil
            setUp()
            queue.push(.overflow)
            return
        }
        let key = event.watch.rawValue
        if event.mask.contains(.ignored) {
            if key == tree.root {
                rootGone()
            } else {
                tree.forget(key)
            }
            return
        }
        guard let directoryPath = tree.path(of: key) else { return }  // a watch already detached

        if event.name.isEmpty {
            if key == tree.root, !event.mask.intersection([.deleteSelf, .moveSelf, .unmount]).isEmpty {
                rootGone()
            }
            return
        }
        guard let name = FileName(bytes: event.name) else { return }
        let path = directoryPath.appending(name)
        let isDirectory = event.mask.contains(.isDirectory)

        if let move = pending {
            pending = nil
            if event.mask.contains(.movedTo), event.cookie == move.cookie {
                completeMove(move, to: path, parentKey: key, name: name)
                return
            }
            emitMovedOut(move)
        }

        if event.mask.contains(.movedFrom) {
            pending = PendingMove(cookie: event.cookie, parent: key, name: name, path: path, isDirectory: isDirectory)
        } else if isDirectory, !LibraryScope.isAlbumName(name) {
            return  // a dot-directory is not in the library: not watched, and nothing in it counts
        } else if event.mask.contains(.movedTo) {
            if isDirectory { watchNewDirectory(name, parentKey: key, parentPath: directoryPath) }
            queue.push(.movedIn(path, isDirectory: isDirectory))
        } else if event.mask.contains(.create) {
            if isDirectory {
                watchNewDirectory(name, parentKey: key, parentPath: directoryPath)
                queue.push(.directoryCreated(path))
            } else {
                queue.push(.fileCreated(path))
            }
        } else if event.mask.contains(.closeWrite) {
            queue.push(.fileWritten(path))
        } else if event.mask.contains(.delete) {
            if isDirectory, let child = tree.child(of: key, named: name) {
                tree.detach(child)
            }
            queue.push(.removed(path, isDirectory: isDirectory))
        } else if event.mask.contains(.attributes) {
            if !isDirectory {
                queue.push(.attributesChanged(path))
                return
            }
            // A directory that could not be opened has no watch yet: it may open now.
            if tree.child(of: key, named: name) == nil {
                watchNewDirectory(name, parentKey: key, parentPath: directoryPath)
            }
            queue.push(.directoryAttributesChanged(path))
        }
    }

    private mutating func completeMove(_ move: PendingMove, to path: RelativePath, parentKey: WatchTree.Key, name: FileName) {
        if move.isDirectory, !LibraryScope.isAlbumName(name) {
            emitMovedOut(move)  // renamed to a dot-name (into a trash folder, say): it left the library
            return
        }
        if move.isDirectory {
            if let child = tree.child(of: move.parent, named: move.name) {
                tree.move(child, toParent: parentKey, name: name)
            } else {
                // We never knew that directory (it appeared and moved before
                // we saw it): treat it as new here.
                watchNewDirectory(name, parentKey: parentKey, parentPath: path.parent ?? .root)
                queue.push(.movedIn(path, isDirectory: true))
                return
            }
        }
        queue.push(.moved(from: move.path, to: path, isDirectory: move.isDirectory))
    }

    private mutating func flushPendingMove() {
        guard let move = pending else { return }
        pending = nil
        emitMovedOut(move)
    }

    /// The entry left the library by a rename: stop watching it, report it gone.
    private mutating func emitMovedOut(_ move: PendingMove) {
        if move.isDirectory, let child = tree.child(of: move.parent, named: move.name) {
            for key in tree.detach(child) {
                source.removeWatch(WatchDescriptor(rawValue: key))
            }
            publishWatchCounts()
        }
        queue.push(.removed(move.path, isDirectory: move.isDirectory))
    }

    private mutating func rootGone() {
        logger.error("The library \(libraryPath) was deleted, moved or unmounted; views are emptied until it is back.")
        tearDown()
        queue.push(.rootGone)
    }
}
