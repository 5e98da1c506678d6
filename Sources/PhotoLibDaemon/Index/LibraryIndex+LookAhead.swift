import PhotoLibCore
import PhotoLibStore

// Which copies without location to make before the write transaction that indexes their files
// (`LocationLookAhead`): the transaction adopts them instead of copying while it holds the lock.
extension LibraryIndex {
    /// Which files of `batch` an app without location may be granted, to look at before the
    /// transaction: those its events name, and those in the directories it makes the index list.
    /// Nil when no app is without location or nothing is to be looked at. Decided from the index; looked
    /// at where the batch's probe is (`LookAheadJob`).
    func lookAheadJob(_ batch: [WatchEvent], for contexts: [AppViewContext]) -> LookAheadJob? {
        let hidden = contexts.filter { $0.app.location == .none && $0.layout != .empty }
        guard !hidden.isEmpty else { return nil }
        var job = LookAheadJob(albums: albums, policy: policy)
        let selectsSingles = hidden.contains { !$0.policy.selectedAssets.isEmpty }
        for path in LocationLookAhead.files(in: batch, policy: policy) {
            let (ancestry, isAlbum) = nearestAncestry(of: path.parent ?? .root)
            var indexed = false
            if selectsSingles, isAlbum, let album = ancestry.first, let name = path.lastComponent {
                indexed = isIndexed(name, in: album)
            }
            guard hidden.contains(where: { $0.policy.mayGrant(fileIn: ancestry, isIndexed: indexed) }) else { continue }
            job.files.append(path)
        }
        for directory in LocationLookAhead.directories(in: batch) {
            let (ancestry, isAlbum) = nearestAncestry(of: directory.path)
            // A file listed again is new only when the index has no member of its name.
            guard hidden.contains(where: { $0.policy.mayGrant(fileIn: ancestry, isIndexed: false) }) else { continue }
            let known = !directory.isNew && isAlbum ? indexedNames(in: ancestry.first) : []
            job.directories.append(LookAheadJob.Directory(path: directory.path, recursive: directory.isNew, skipping: known))
        }
        return job.isEmpty ? nil : job
    }

    /// The album at `path`, or its nearest existing ancestor, followed by those above it;
    /// and whether `path` itself is an album already.
    private func nearestAncestry(of path: RelativePath) -> ([AlbumTree.ID], Bool) {
        var nearest = path
        while albums.album(at: nearest) == nil, let up = nearest.parent { nearest = up }
        let ancestry = albums.album(at: nearest).map(albums.ancestry(of:)) ?? []
        return (ancestry, nearest == path)
    }

    private func isIndexed(_ name: FileName, in album: AlbumTree.ID) -> Bool {
        do {
            return try store.read { try $0.member(album: album, name: name) } != nil
        } catch {
            return true  // not known: looked at, which costs a look and never a wrong answer
        }
    }

    private func indexedNames(in album: AlbumTree.ID?) -> Set<FileName> {
        guard let album else { return [] }
        do {
            let records = try store.read { try $0.assets(inAlbums: [album]) }
            return Set(records.flatMap(\.members).filter { $0.album == album }.map(\.name))
        } catch {
            return []  // not known: every file is looked at, which costs looks and never a wrong answer
        }
    }
}
