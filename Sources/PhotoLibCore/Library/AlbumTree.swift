/// The library's directories (albums) as a tree of numeric IDs and byte names.
///
/// Kept in memory by the daemon (a library has thousands of albums, not
/// millions) so a path resolves without touching the database. Album 1 is the
/// library root. Renaming or moving an album changes one node; everything
/// below keeps its ID.
public struct AlbumTree: Sendable {
    public typealias ID = Int64

    public struct Node: Sendable, Equatable {
        public var parent: ID?
        public var name: FileName?
        public init(parent: ID?, name: FileName?) {
            self.parent = parent
            self.name = name
        }
    }

    public static let rootID: ID = 1

    private(set) var nodes: [ID: Node] = [:]
    private var children: [ID: [FileName: ID]] = [:]

    public init() {
        nodes[Self.rootID] = Node(parent: nil, name: nil)
    }

    public var count: Int { nodes.count }
    public var allIDs: [ID] { Array(nodes.keys) }

    public func contains(_ id: ID) -> Bool { nodes[id] != nil }
    public func node(_ id: ID) -> Node? { nodes[id] }

    /// Adds a node loaded from storage or newly created.
    public mutating func insert(id: ID, parent: ID, name: FileName) {
        nodes[id] = Node(parent: parent, name: name)
        children[parent, default: [:]][name] = id
    }

    public func child(of parent: ID, named name: FileName) -> ID? {
        children[parent]?[name]
    }

    public func children(of id: ID) -> [FileName: ID] { children[id] ?? [:] }

    /// The album at `path`, if known.
    public func album(at path: RelativePath) -> ID? {
        var current = Self.rootID
        for component in path.components {
            guard let next = children[current]?[component] else { return nil }
            current = next
        }
        return current
    }

    /// The path of an album from the root.
    public func path(of id: ID) -> RelativePath? {
        var components: [FileName] = []
        var current = id
        while current != Self.rootID {
            guard let node = nodes[current], let name = node.name, let parent = node.parent else { return nil }
            components.append(name)
            current = parent
        }
        return RelativePath(components.reversed())
    }

    /// `id` and every album below it, parents before children.
    public func subtree(of id: ID) -> [ID] {
        guard nodes[id] != nil else { return [] }
        var out = [id]
        var index = 0
        while index < out.count {
            out.append(contentsOf: (children[out[index]] ?? [:]).values.sorted())
            index += 1
        }
        return out
    }

    /// True when `id` is `ancestor` or lies below it.
    public func isWithin(_ id: ID, _ ancestor: ID) -> Bool {
        var current: ID? = id
        while let c = current {
            if c == ancestor { return true }
            current = nodes[c]?.parent
        }
        return false
    }

    /// `id` followed by its ancestors up to the root.
    public func ancestry(of id: ID) -> [ID] {
        var out: [ID] = []
        var current: ID? = id
        while let c = current, nodes[c] != nil {
            out.append(c)
            current = nodes[c]?.parent
        }
        return out
    }

    /// Moves or renames an album; its subtree moves with it.
    public mutating func move(_ id: ID, toParent parent: ID, name: FileName) {
        guard let old = nodes[id], id != Self.rootID else { return }
        if let oldParent = old.parent, let oldName = old.name {
            children[oldParent]?[oldName] = nil
        }
        nodes[id] = Node(parent: parent, name: name)
        children[parent, default: [:]][name] = id
    }

    /// Removes an album and its subtree; returns the removed IDs.
    @discardableResult
    public mutating func remove(_ id: ID) -> [ID] {
        guard id != Self.rootID, let node = nodes[id] else { return [] }
        let removed = subtree(of: id)
        if let parent = node.parent, let name = node.name {
            children[parent]?[name] = nil
        }
        for gone in removed {
            nodes[gone] = nil
            children[gone] = nil
        }
        return removed
    }
}
