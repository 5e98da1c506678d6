public import PhotoLibCore

/// A library directory's listing for the index: names that could be assets, with
/// what each is now, and the directories that could be albums.
public enum LibraryListing {
    /// Lists a directory and looks up the entries that could be assets or albums
    /// (a `statx` each), as a scan and `DirectoryPlan` need it; on any thread.
    public static func list(_ directory: FileDescriptor, policy: AssetNamePolicy) -> Lookup<[DirectoryPlan.Entry]> {
        let entries: [DirectoryEntry]
        do {
            entries = try Directory.list(directory)
        } catch {
            return Lookup(failure: error.failure)
        }
        var out: [DirectoryPlan.Entry] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            switch entry.kind {
            case .directory:
                out.append(.init(name: entry.name, kind: .directory))
            case .regular, .unknown:
                // Only names that could be assets are looked up: the rest cost nothing.
                if entry.kind == .regular, policy.mediaType(of: entry.name) == nil { continue }
                let lookup: Lookup<FileObservation>
                do {
                    lookup = .found(try Directory.lookUp(entry.name, in: directory).observation)
                } catch {
                    lookup = Lookup(failure: error.failure)
                }
                if case .found(let found) = lookup, found.kind == .directory {
                    out.append(.init(name: entry.name, kind: .directory))
                } else {
                    out.append(.init(name: entry.name, kind: .file(lookup)))
                }
            case .symlink, .other:
                continue  // never an asset, never an album
            }
        }
        return .found(out)
    }
}
