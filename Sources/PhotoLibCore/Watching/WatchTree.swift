/// The watcher's own map from inotify watch descriptors to directories.
///
/// libinotifytools' path tables lose track of renamed trees and never forget
/// removed watches, so the watcher keeps this tree instead: each watched
/// directory is a node (parent, name bytes) keyed by its watch descriptor, and
/// a rename moves one node. The path of any event is then the node's path plus
/// the event's name, correct however often directories above it moved.
public struct WatchTree: Sendable {
    public typealias Key = Int32

    public struct Node: Sendable, Equatable {
        public var parent: Key?
        public var name: FileName?
    }

    private var nodes: [Key: Node] = [:]
    private var children: [Key: [FileName: Key]] = [:]
    public private(set) var root: Key?

    public init() {}

    public var count: Int { nodes.count }
    public func contains(_ key: Key) -> Bool { nodes[key] != nil }

    public mutating func setRoot(_ key: Key) {
        root = key
        nodes[key] = Node(parent: nil, name: nil)
    }

    /// Records `key` as the directory `name` inside `parent`.
    ///
    /// If the kernel returned a descriptor already in the tree (the same
    /// directory reached again, after a rename we could not pair), the node moves.
    public mutating func insert(_ key: Key, parent: Key, name: FileName) {
        if let old = nodes[key], let oldParent = old.parent, let oldName = old.name {
            children[oldParent]?[oldName] = nil
        }
        // A different directory that had this name is gone (replaced).
        if let previous = children[parent]?[name], previous != key {
            detach(previous)
        }
        nodes[key] = Node(parent: parent, name: name)
        children[parent, default: [:]][name] = key
    }

    public func child(of parent: Key, named name: FileName) -> Key? {
        children[parent]?[name]
    }

    /// The directory's path below the root; `nil` when the key is unknown or detached.
    public func path(of key: Key) -> RelativePath? {
        var components: [FileName] = []
        var current = key
        while current != root {
            guard let node = nodes[current], let parent = node.parent, let name = node.name else { return nil }
            components.append(name)
            current = parent
        }
        return RelativePath(components.reversed())
    }

    /// Renames a directory node; its subtree follows.
    public mutating func move(_ key: Key, toParent parent: Key, name: FileName) {
        insert(key, parent: parent, name: name)
    }

    /// Removes a node and its subtree from the tree; returns the removed keys
    /// (the caller removes their kernel watches).
    @discardableResult
    public mutating func detach(_ key: Key) -> [Key] {
        guard let node = nodes[key] else { return [] }
        if let parent = node.parent, let name = node.name, children[parent]?[name] == key {
            children[parent]?[name] = nil
        }
        var removed = [key]
        var index = 0
        while index < removed.count {
            removed.append(contentsOf: (children[removed[index]] ?? [:]).values)
            index += 1
        }
        for gone in removed {
            nodes[gone] = nil
            children[gone] = nil
        }
        if removed.contains(where: { $0 == root }) { root = nil }
        return removed
    }

    /// Forgets one node after the kernel dropped its watch (`IN_IGNORED`); children stay reachable only if re-attached.
    public mutating func forget(_ key: Key) {
        guard nodes[key] != nil else { return }
        detach(key)
    }
}
