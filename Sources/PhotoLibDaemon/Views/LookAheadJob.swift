import Logging
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibSystem

/// The files a batch's copies without location are made ahead for (`LocationLookAhead`), decided
/// on the engine, and the work itself, done where the batch's probe is: on a thread of its own,
/// through descriptors of its own. What it made is handed back to the catalog (`receive`).
struct LookAheadJob: Sendable {
    /// A directory whose media files are looked at.
    struct Directory: Sendable {
        let path: RelativePath
        /// Below a new directory everything is new; below one listed again, only what is not an album yet.
        let recursive: Bool
        /// Names the index holds already in it: not new, so not looked at.
        let skipping: Set<FileName>
    }

    var files: [RelativePath] = []
    var directories: [Directory] = []
    /// The albums as indexed, for which directories listed again are new.
    let albums: AlbumTree
    let policy: AssetNamePolicy

    var isEmpty: Bool { files.isEmpty && directories.isEmpty }

    /// Looks at every file of the job through `looking`, making stripped copies in `derivatives`
    /// (a descriptor the caller owns); files whose identity is in `known` are passed over.
    /// Returns what was found, by the file's identity, and how many files were looked at.
    func perform(looking: any LibraryLooking, derivatives: FileDescriptor, known: Set<FileIdentityKey>,
                 logger: Logger) -> (found: [FileIdentityKey: LookedAhead], looked: Int) {
        var work = Work(derivatives: derivatives, known: known, logger: logger)
        for path in files {
            guard let name = path.lastComponent, let album = looking.directory(path.parent ?? .root) else { continue }
            work.look(name, in: album)
        }
        for directory in directories {
            walk(directory.path, recursive: directory.recursive, skipping: directory.skipping, looking: looking, work: &work)
        }
        return (work.found, work.looked)
    }

    private func walk(_ path: RelativePath, recursive: Bool, skipping known: Set<FileName>, looking: any LibraryLooking, work: inout Work) {
        guard let directory = looking.directory(path) else { return }  // gone or unreadable: the index says which
        let entries: [DirectoryEntry]
        do {
            entries = try PhotoLibSystem.Directory.list(directory)
        } catch {
            return  // the index's own listing reports it
        }
        for entry in entries {
            switch entry.kind {
            case .directory where LibraryScope.isAlbumName(entry.name):
                let below = path.appending(entry.name)
                if recursive || albums.album(at: below) == nil { walk(below, recursive: true, skipping: [], looking: looking, work: &work) }
            case .regular, .unknown:
                guard policy.mediaType(of: entry.name) != nil, !known.contains(entry.name) else { continue }
                work.look(entry.name, in: directory)
            default:
                continue
            }
        }
    }

    /// The looks of one job, as they are made.
    private struct Work {
        let derivatives: FileDescriptor
        let known: Set<FileIdentityKey>
        let logger: Logger
        var found: [FileIdentityKey: LookedAhead] = [:]
        var looked = 0
        var generator = SystemRandomNumberGenerator()

        init(derivatives: FileDescriptor, known: Set<FileIdentityKey>, logger: Logger) {
            (self.derivatives, self.known, self.logger) = (derivatives, known, logger)
        }

        mutating func look(_ name: FileName, in album: FileDescriptor) {
            looked += 1
            let (already, derivatives, logger) = (known.union(found.keys), self.derivatives, self.logger)
            if let (key, outcome) = DerivativeCatalog.look(at: name, in: album, into: derivatives, known: already,
                                                           generator: &generator, logger: logger) {
                found[key] = outcome
            }
        }
    }
}
