/// What each inotify event on the library's watched directories means: the
/// `WatchEvent`s the engine is told, and the watches to add or drop.
///
/// inotify reports a rename as two events (`IN_MOVED_FROM`, then
/// `IN_MOVED_TO` with the same cookie), a directory's own deletion as
/// `IN_IGNORED`, and nothing at all for what happens inside a directory that
/// is not watched yet. This type pairs the halves of a rename, keeps the
/// watch tree's shape in step with renames and removals, and says which new
/// directories need watches; the watcher thread only reads the kernel's events,
/// adds and removes watches, and queues what this type emits.
public struct WatchTranslator: Sendable {
    /// The kernel's event, with its mask as flags (from `IN_*`).
    public struct Raw: Sendable, Equatable {
        public var watch: WatchTree.Key
        public var flags: Flags
        public var cookie: UInt32
        /// The entry's name in the watched directory; empty for events on the directory itself.
        public var name: [UInt8]

        public init(watch: WatchTree.Key, flags: Flags, cookie: UInt32 = 0, name: [UInt8] = []) {
            self.watch = watch
            self.flags = flags
            self.cookie = cookie
            self.name = name
        }
    }

    /// The `IN_*` bits this type reads.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let attributes = Flags(rawValue: 1 << 0)
        public static let closeWrite = Flags(rawValue: 1 << 1)
        public static let movedFrom = Flags(rawValue: 1 << 2)
        public static let movedTo = Flags(rawValue: 1 << 3)
        public static let create = Flags(rawValue: 1 << 4)
        public static let delete = Flags(rawValue: 1 << 5)
        public static let deleteSelf = Flags(rawValue: 1 << 6)
        public static let moveSelf = Flags(rawValue: 1 << 7)
        public static let unmount = Flags(rawValue: 1 << 8)
        public static let queueOverflow = Flags(rawValue: 1 << 9)
        public static let ignored = Flags(rawValue: 1 << 10)
        public static let isDirectory = Flags(rawValue: 1 << 11)
        /// An entry was opened (asked for only on views, for the access report).
        public static let open = Flags(rawValue: 1 << 12)
    }

    /// What the watcher does, in order.
    public enum Action: Sendable, Equatable {
        /// Queue this for the engine.
        case emit(WatchEvent)
        /// Watch a directory that appeared, and everything below it.
        case watch(FileName, parent: WatchTree.Key, parentPath: RelativePath)
        /// Drop these watches (a directory that left the library, and those below it).
        case unwatch([WatchTree.Key])
        /// Events were lost: build every watch again (the engine is told by the `.overflow` that follows).
        case rebuild
        /// The library's root went: tear the watches down and say so.
        case rootGone
    }

    private struct PendingMove: Sendable, Equatable {
        let cookie: UInt32
        let parent: WatchTree.Key
        let name: FileName
        let path: RelativePath
        let isDirectory: Bool
    }

    /// Half a rename, waiting for its other half.
    private var pending: PendingMove?

    public init() {}

    /// Whether half a rename waits: the watcher then polls briefly rather than sleeps.
    public var hasPendingMove: Bool { pending != nil }

    /// Forgets half a rename (the watches are being built again).
    public mutating func reset() { pending = nil }

    /// What one event means. `tree` follows renames and removals of watched directories.
    public mutating func take(_ event: Raw, tree: inout WatchTree) -> [Action] {
        if event.flags.contains(.queueOverflow) {
            pending = nil
            return [.rebuild, .emit(.overflow)]
        }
        let key = event.watch
        if event.flags.contains(.ignored) {
            if key == tree.root { return [.rootGone] }
            tree.forget(key)
            return []
        }
        guard let directoryPath = tree.path(of: key) else { return [] }  // a watch already detached
        if event.name.isEmpty {
            let rootWent = key == tree.root && !event.flags.intersection([.deleteSelf, .moveSelf, .unmount]).isEmpty
            return rootWent ? [.rootGone] : []
        }
        guard let name = FileName(bytes: event.name) else { return [] }
        let path = directoryPath.appending(name)
        let isDirectory = event.flags.contains(.isDirectory)

        var actions: [Action] = []
        if let move = pending {
            pending = nil
            if event.flags.contains(.movedTo), event.cookie == move.cookie {
                return complete(move, to: path, parent: key, name: name, tree: &tree)
            }
            actions += movedOut(move, tree: &tree)
        }
        if event.flags.contains(.movedFrom) {
            pending = PendingMove(cookie: event.cookie, parent: key, name: name, path: path, isDirectory: isDirectory)
        } else if isDirectory, !LibraryScope.isAlbumName(name) {
            // A dot-directory is not in the library: not watched, and nothing in it counts.
        } else if event.flags.contains(.movedTo) {
            if isDirectory { actions.append(.watch(name, parent: key, parentPath: directoryPath)) }
            actions.append(.emit(.movedIn(path, isDirectory: isDirectory)))
        } else if event.flags.contains(.create) {
            if isDirectory {
                actions += [.watch(name, parent: key, parentPath: directoryPath), .emit(.directoryCreated(path))]
            } else {
                actions.append(.emit(.fileCreated(path)))
            }
        } else if event.flags.contains(.closeWrite) {
            actions.append(.emit(.fileWritten(path)))
        } else if event.flags.contains(.delete) {
            if isDirectory, let child = tree.child(of: key, named: name) { _ = tree.detach(child) }
            actions.append(.emit(.removed(path, isDirectory: isDirectory)))
        } else if event.flags.contains(.attributes) {
            if !isDirectory {
                actions.append(.emit(.attributesChanged(path)))
            } else {
                // A directory that could not be opened has no watch yet: it may open now.
                if tree.child(of: key, named: name) == nil { actions.append(.watch(name, parent: key, parentPath: directoryPath)) }
                actions.append(.emit(.directoryAttributesChanged(path)))
            }
        }
        return actions
    }

    /// Half a rename whose other half did not come (it went outside the library): the entry left.
    public mutating func flush(tree: inout WatchTree) -> [Action] {
        guard let move = pending else { return [] }
        pending = nil
        return movedOut(move, tree: &tree)
    }

    private func complete(_ move: PendingMove, to path: RelativePath, parent: WatchTree.Key, name: FileName,
                          tree: inout WatchTree) -> [Action] {
        if move.isDirectory, !LibraryScope.isAlbumName(name) {
            return movedOut(move, tree: &tree)  // renamed to a dot-name (into a trash folder, say): it left the library
        }
        if move.isDirectory {
            guard let child = tree.child(of: move.parent, named: move.name) else {
                // A directory never known (it appeared and moved before it was seen): new here.
                return [.watch(name, parent: parent, parentPath: path.parent ?? .root), .emit(.movedIn(path, isDirectory: true))]
            }
            tree.move(child, toParent: parent, name: name)
        }
        return [.emit(.moved(from: move.path, to: path, isDirectory: move.isDirectory))]
    }

    /// The entry left the library by a rename: its watches go, and it is reported gone.
    private func movedOut(_ move: PendingMove, tree: inout WatchTree) -> [Action] {
        var actions: [Action] = []
        if move.isDirectory, let child = tree.child(of: move.parent, named: move.name) {
            actions.append(.unwatch(tree.detach(child)))
        }
        actions.append(.emit(.removed(move.path, isDirectory: move.isDirectory)))
        return actions
    }
}
