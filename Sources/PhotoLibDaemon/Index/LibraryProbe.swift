import PhotoLibCore
import PhotoLibSystem

/// What a batch of watch events will make the index look at, looked at before
/// its write transaction opens: each named file's `statx` (and its ancestors',
/// for albums it may make), the listing of every directory below one that
/// appeared, and, while rule grants exist, when each file was taken.
///
/// The transaction then reads these answers instead of the disk, so it holds
/// the database's write lock only for SQLite's own work. A file that changes
/// after its probe has an event of its own, which the next batch probes again.
struct LibraryProbe {
    var lookups: [RelativePath: Lookup<FileObservation>] = [:]
    /// Listings of directories that appeared (or must be listed again), and of every album below them.
    var listings: [RelativePath: Lookup<[DirectoryPlan.Entry]>] = [:]
    /// When each probed media file was taken (nil: it could not be opened), while a capture clock is set.
    var takenAt: [RelativePath: Int64?] = [:]

    /// Probes what `events` will need, as the index stands before them.
    static func gather(_ events: [WatchEvent], index: LibraryIndex) -> LibraryProbe {
        var probe = LibraryProbe()
        for event in events {
            switch IndexStep.of(event) {
            case .refreshFile(let path, _):
                // A name that can be no asset (a sidecar, a dot-file) the index passes over: nothing to look at.
                guard Self.couldBeAsset(path, index: index) else { continue }
                probe.lookUpAncestors(of: path.parent ?? .root, index: index)
                probe.lookUpFile(path, index: index)
            case .moveFile(_, let to):
                guard Self.couldBeAsset(to, index: index) else { continue }  // it left the library: only rows go
                probe.lookUpAncestors(of: to.parent ?? .root, index: index)
                probe.lookUpFile(to, index: index)
            case .scanNewDirectory(let path), .rescanSubtree(let path):
                probe.lookUpAncestors(of: path, index: index)
                probe.walk(path, index: index)
            case .moveAlbum(let from, let to):
                probe.lookUpAncestors(of: to, index: index)
                // Only an album the index does not know yet is listed, where it arrived: a known one is one row renamed.
                if LibraryScope.isAlbum(to), from.isRoot || index.albums.album(at: from) == nil { probe.walk(to, index: index) }
            case .removeFile, .removeAlbum, .fullScan, .rootGone, .watchFailed:
                break
            }
        }
        return probe
    }

    /// Whether the index would look at a file at `path` (the same test `refreshFile` and `moveFile` begin with).
    private static func couldBeAsset(_ path: RelativePath, index: LibraryIndex) -> Bool {
        guard LibraryScope.contains(path), let name = path.lastComponent else { return false }
        return index.policy.mediaType(of: name) != nil
    }

    /// Each directory from the root down to `path` (the albums `ensureAlbum` may make).
    private mutating func lookUpAncestors(of path: RelativePath, index: LibraryIndex) {
        var walked = RelativePath.root
        for component in path.components {
            walked = walked.appending(component)
            if lookups[walked] == nil { lookups[walked] = index.access.lookUp(walked) }
        }
    }

    private mutating func lookUpFile(_ path: RelativePath, index: LibraryIndex) {
        guard lookups[path] == nil else { return }
        let found = index.access.lookUp(path)
        lookups[path] = found
        if case .found(let file) = found, file.kind == .regular { noteTakenAt(path, file: file.facts, index: index) }
    }

    /// Lists `path` and every album below it.
    private mutating func walk(_ path: RelativePath, index: LibraryIndex) {
        guard listings[path] == nil else { return }
        let listing: Lookup<[DirectoryPlan.Entry]>
        switch index.access.lookUpDirectory(path) {
        case .found(let directory): listing = index.list(directory)
        case .gone: listing = .gone
        case .unreadable(let failure): listing = .unreadable(failure)
        }
        listings[path] = listing
        guard case .found(let entries) = listing else { return }
        for entry in entries {
            let below = path.appending(entry.name)
            switch entry.kind {
            case .directory where LibraryScope.isAlbumName(entry.name):
                walk(below, index: index)
            case .file(.found(let file)) where file.kind == .regular:
                noteTakenAt(below, file: file.facts, index: index)
            default:
                continue
            }
        }
    }

    private mutating func noteTakenAt(_ path: RelativePath, file: FileFacts, index: LibraryIndex) {
        guard let clock = index.captureClock, let name = path.lastComponent, index.policy.mediaType(of: name) != nil else { return }
        takenAt[path] = clock.takenAt(album: path.parent ?? .root, name: name, file: file)
    }
}
