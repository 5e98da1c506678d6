/// What of the library inotify cannot follow, so verification rounds do: all of it when it is on a
/// network or FUSE filesystem (inotify sees only what this machine does there, not a change made on
/// the server, by a phone's sync or another computer), or the directories that got no watch (past
/// `fs.inotify.max_user_watches`), each with everything below it.
public struct RoundCoverage: Sendable, Equatable {
    /// The library's filesystem, when it is remote: the whole library is covered.
    public var remoteFilesystem: String?
    /// Directories without a watch (and so everything below them).
    public var unwatched: Set<RelativePath>

    public init(remoteFilesystem: String? = nil, unwatched: Set<RelativePath> = []) {
        self.remoteFilesystem = remoteFilesystem
        self.unwatched = unwatched
    }

    public var isEmpty: Bool { remoteFilesystem == nil && unwatched.isEmpty }

    public func covers(_ path: RelativePath) -> Bool {
        remoteFilesystem != nil || unwatched.contains { path.isWithin($0) }
    }

    /// The known albums a round looks at, the root included when covered, as (album, path).
    public func albums(in tree: AlbumTree) -> [(AlbumTree.ID, RelativePath)] {
        if remoteFilesystem != nil { return tree.subtree(of: AlbumTree.rootID).compactMap { id in tree.path(of: id).map { (id, $0) } } }
        var out: [(AlbumTree.ID, RelativePath)] = []
        var seen = Set<AlbumTree.ID>()
        for top in unwatched.sorted() {
            guard let id = tree.album(at: top) else { continue }
            for below in tree.subtree(of: id) where seen.insert(below).inserted {
                if let path = tree.path(of: below) { out.append((below, path)) }
            }
        }
        return out
    }

    /// In words, for `status` and the log.
    public var description: String {
        if let remoteFilesystem {
            return "the library is on \(remoteFilesystem), where inotify sees only this machine's own changes"
        }
        return "\(unwatched.count) director\(unwatched.count == 1 ? "y has" : "ies have") no inotify watch (raise fs.inotify.max_user_watches)"
    }
}
