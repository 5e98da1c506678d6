/// Links gathered for one app's view across a batch, to make together (a
/// directory's at a time, on every core), and the rule that keeps their order:
/// an entry waiting is linked before anything touches it again, and before any
/// album changes (the executor links what waits first).
public struct PendingLinks: Sendable {
    /// In the order asked; at most one per entry path.
    public private(set) var links: [(path: RelativePath, source: LinkSource)] = []
    private var paths: Set<RelativePath> = []

    public init() {}

    public var isEmpty: Bool { links.isEmpty }

    /// Whether what waits must be linked before an asset change that touches these entries.
    public func mustLinkFirst(touching entries: [RelativePath]) -> Bool {
        entries.contains(where: paths.contains)
    }

    /// Gathers a link. An entry already waiting (which `mustLinkFirst` keeps from
    /// happening) takes the later source: the last one asked is what the view must hold.
    public mutating func add(_ path: RelativePath, _ source: LinkSource) {
        if paths.contains(path), let index = links.firstIndex(where: { $0.path == path }) {
            links[index].source = source
            return
        }
        links.append((path, source))
        paths.insert(path)
    }

    /// What waits, by the view directory it goes into (a directory's links are made together).
    public var byDirectory: [RelativePath: [(entry: FileName, source: LinkSource)]] {
        var grouped: [RelativePath: [(entry: FileName, source: LinkSource)]] = [:]
        for (path, source) in links {
            guard let entry = path.lastComponent else { continue }
            grouped[path.parent ?? .root, default: []].append((entry, source))
        }
        return grouped
    }

    /// Takes what waits, leaving nothing.
    public mutating func take() -> [(path: RelativePath, source: LinkSource)] {
        defer {
            links = []
            paths = []
        }
        return links
    }
}
