import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// Copies without location made before the write transaction that indexes their files
// (`LocationLookAhead`): the transaction adopts them instead of copying while it holds the lock.
extension Engine {
    /// Looks, before the transaction, at the files of `batch` that an app without location may be granted:
    /// those its events name, and those in the directories it makes the index list.
    func lookAheadWithoutLocation(_ batch: [WatchEvent], for contexts: [AppViewContext]) {
        let hidden = contexts.filter { $0.app.location == .none && $0.layout != .empty }
        guard !hidden.isEmpty else { return }
        var looked = 0
        defer { if looked > 0 { logger.debug("Looked ahead at \(looked) files for apps without location.") } }
        let selectsSingles = hidden.contains { !$0.policy.selectedAssets.isEmpty }
        for path in LocationLookAhead.files(in: batch, policy: configuration.namePolicy) {
            let (ancestry, isAlbum) = nearestAncestry(of: path.parent ?? .root)
            var indexed = false
            if selectsSingles, isAlbum, let album = ancestry.first, let name = path.lastComponent {
                indexed = isIndexed(name, in: album)
            }
            guard hidden.contains(where: { $0.policy.mayGrant(fileIn: ancestry, isIndexed: indexed) }) else { continue }
            views.lookAhead(path)
            looked += 1
        }
        for directory in LocationLookAhead.directories(in: batch) {
            let (ancestry, isAlbum) = nearestAncestry(of: directory.path)
            // A file listed again is new only when the index has no member of its name.
            guard hidden.contains(where: { $0.policy.mayGrant(fileIn: ancestry, isIndexed: false) }) else { continue }
            let known = !directory.isNew && isAlbum ? indexedNames(in: ancestry.first) : []
            looked += walk(directory.path, recursive: directory.isNew, skipping: known)
        }
    }

    /// The album at `path`, or its nearest existing ancestor, followed by those above it;
    /// and whether `path` itself is an album already.
    private func nearestAncestry(of path: RelativePath) -> ([AlbumTree.ID], Bool) {
        var nearest = path
        while index.albums.album(at: nearest) == nil, let up = nearest.parent { nearest = up }
        let ancestry = index.albums.album(at: nearest).map(index.albums.ancestry(of:)) ?? []
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

    /// Looks ahead at the media files of a directory (and, when `recursive`, of the albums below it).
    private func walk(_ path: RelativePath, recursive: Bool, skipping known: Set<FileName>) -> Int {
        guard let directory = index.access.directory(path) else { return 0 }  // gone or unreadable: the index says which
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.list(directory)
        } catch {
            return 0  // the index's own listing reports it
        }
        var looked = 0
        for entry in entries {
            switch entry.kind {
            case .directory where LibraryScope.isAlbumName(entry.name):
                // Below a new directory everything is new; below one listed again, what is not an album yet.
                let below = path.appending(entry.name)
                if recursive || index.albums.album(at: below) == nil { looked += walk(below, recursive: true, skipping: []) }
            case .regular, .unknown:
                guard configuration.namePolicy.mediaType(of: entry.name) != nil, !known.contains(entry.name) else { continue }
                views.lookAhead(path.appending(entry.name))
                looked += 1
            default:
                continue
            }
        }
        return looked
    }
}
