import PhotoLibCore
import PhotoLibSystem

/// Where clones are made before each is renamed, whole, into its view:
/// `views/.clones/<n>`, the daemon's own (0700), in no app's view, one
/// directory per worker so that cores cloning at once do not queue on one
/// directory's lock. Anything a crash left there is removed at start.
final class CloneStaging: Sendable {
    static let name = FileName(".clones")!

    private let directories: [FileDescriptor]

    private init(directories: [FileDescriptor]) {
        self.directories = directories
    }

    /// The directory worker `worker` makes its clones in.
    func directory(for worker: Int) -> FileDescriptor {
        directories[worker % directories.count]
    }

    /// Makes `views/.clones` afresh (what a crash left half made there goes), with one
    /// directory per worker that may clone at once.
    static func open(in viewsRoot: FileDescriptor, workers: Int) throws(SystemCallError) -> CloneStaging {
        try Directory.removeTree(name, in: viewsRoot)
        try Directory.makeDirectory(name, in: viewsRoot, mode: 0o700)
        let root = try Directory.open(name, in: viewsRoot)
        defer { root.close() }
        var directories: [FileDescriptor] = []
        do {
            for worker in 0..<max(1, workers) {
                let name = FileName("\(worker)")!
                try Directory.makeDirectory(name, in: root, mode: 0o700)
                directories.append(try Directory.open(name, in: root))
            }
        } catch {
            for directory in directories { directory.close() }
            throw error
        }
        return CloneStaging(directories: directories)
    }
}
