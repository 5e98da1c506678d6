import PhotoLibCore
import PhotoLibSystem

/// How a batch's probe is gathered: through descriptors of the probe's own, on the thread the
/// engine gives it (the library's, for a library whose server may stop answering).
extension LibraryProbe {
    /// Probes what `events` will need, as the index stood in `basis`, through `looking`
    /// (descriptors of the probe's own: it runs on a thread of its own, beside the engine).
    /// `indexedNames`: the names of the files the index holds in an album (nil when they cannot be
    /// read): for a directory listed again, each one its listing lacks is looked up by name too.
    static func gather(_ events: [WatchEvent], basis: Basis, looking: any LibraryLooking,
                       indexedNames: (AlbumTree.ID) -> Set<FileName>? = { _ in nil }) -> LibraryProbe {
        var walker = Walker(basis: basis, looking: looking,
                            clock: basis.readsCaptureTimes ? CaptureClock(access: looking) : nil)
        for event in events {
            switch IndexStep.of(event) {
            case .refreshFile(let path, _):
                // A name that can be no asset (a sidecar, a dot-file) the index passes over: nothing to look at.
                guard walker.couldBeAsset(path) else { continue }
                walker.lookUpAncestors(of: path.parent ?? .root)
                walker.lookUpFile(path)
            case .moveFile(_, let to):
                guard walker.couldBeAsset(to) else { continue }  // it left the library: only rows go
                walker.lookUpAncestors(of: to.parent ?? .root)
                walker.lookUpFile(to)
            case .scanNewDirectory(let path), .rescanSubtree(let path):
                walker.lookUpAncestors(of: path)
                walker.walk(path)
            case .relistDirectory(let path):
                walker.lookUpAncestors(of: path)
                walker.relist(path, indexedNames: indexedNames)
            case .moveAlbum(let from, let to):
                walker.lookUpAncestors(of: to)
                // Only an album the index does not know yet is listed, where it arrived: a known one is one row renamed.
                if LibraryScope.isAlbum(to), from.isRoot || basis.albums.album(at: from) == nil { walker.walk(to) }
            case .removeFile, .removeAlbum, .fullScan, .rootGone, .watchFailed:
                break
            }
        }
        return walker.probe
    }

    /// The probe as it is gathered, with what it looks through.
    private struct Walker {
        let basis: Basis
        let looking: any LibraryLooking
        let clock: CaptureClock?
        var probe = LibraryProbe()

        /// Whether the index would look at a file at `path` (the same test `refreshFile` and `moveFile` begin with).
        func couldBeAsset(_ path: RelativePath) -> Bool {
            guard LibraryScope.contains(path), let name = path.lastComponent else { return false }
            return basis.policy.mediaType(of: name) != nil
        }

        /// Each directory from the root down to `path` (the albums `ensureAlbum` may make).
        mutating func lookUpAncestors(of path: RelativePath) {
            var walked = RelativePath.root
            for component in path.components {
                walked = walked.appending(component)
                if probe.lookups[walked] == nil { probe.lookups[walked] = looking.lookUp(walked) }
            }
        }

        mutating func lookUpFile(_ path: RelativePath) {
            guard probe.lookups[path] == nil else { return }
            let found = looking.lookUp(path)
            probe.lookups[path] = found
            if case .found(let file) = found, file.kind == .regular { noteTakenAt(path, file: file.facts) }
        }

        /// Lists `path` again, and walks only the albums below it the index does not know (a known
        /// one has rounds of its own); one it does not know itself is walked whole.
        mutating func relist(_ path: RelativePath, indexedNames: (AlbumTree.ID) -> Set<FileName>?) {
            let albums = basis.albums
            guard let album = albums.album(at: path) else { return walk(path) }
            list(path) { name in albums.child(of: album, named: name) == nil }
            // What the index knows there and the listing lacks, each by its own stat: gone, or a listing
            // from an older cache than the stats (`RoundJudgement.listingAgrees`).
            guard case .found(let entries)? = probe.listings[path], let files = indexedNames(album) else { return }
            let listed = Set(entries.map(\.name))
            for name in files.union(albums.children(of: album).keys) where !listed.contains(name) {
                let lacking = path.appending(name)
                if probe.lookups[lacking] == nil { probe.lookups[lacking] = looking.lookUp(lacking) }
            }
        }

        /// Lists `path` and every album below it.
        mutating func walk(_ path: RelativePath) {
            list(path) { _ in true }
        }

        /// Lists `path`, and walks the albums below it that `descends` names.
        private mutating func list(_ path: RelativePath, descending descends: (FileName) -> Bool) {
            guard probe.listings[path] == nil else { return }
            let listing: Lookup<[DirectoryPlan.Entry]>
            switch looking.lookUpDirectory(path) {
            case .found(let directory): listing = LibraryListing.list(directory, policy: basis.policy)
            case .gone: listing = .gone
            case .unreadable(let failure): listing = .unreadable(failure)
            }
            probe.listings[path] = listing
            guard case .found(let entries) = listing else { return }
            for entry in entries {
                let below = path.appending(entry.name)
                switch entry.kind {
                case .directory where LibraryScope.isAlbumName(entry.name):
                    if descends(entry.name) { walk(below) }
                case .file(.found(let file)) where file.kind == .regular:
                    noteTakenAt(below, file: file.facts)
                default:
                    continue
                }
            }
        }

        private mutating func noteTakenAt(_ path: RelativePath, file: FileFacts) {
            guard let clock, let name = path.lastComponent, basis.policy.mediaType(of: name) != nil else { return }
            probe.takenAt[path] = clock.takenAt(album: path.parent ?? .root, name: name, file: file)
        }
    }
}
