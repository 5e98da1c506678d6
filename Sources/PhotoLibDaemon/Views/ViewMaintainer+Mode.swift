import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibSystem

/// How view entries are made, decided once at start (SPEC §11).
extension ViewMaintainer {
    /// Hard links, clones or references: the setting, what a probe of the views' filesystem finds, and
    /// whether the library is on a remote filesystem on another mount than the views.
    static func decideMode(_ configuration: DaemonConfiguration, viewsRoot: FileDescriptor, library: FileDescriptor,
                           libraryFilesystem: FilesystemKind?) throws -> ViewModeDecision {
        let support: CloneSupport
        let apart: Bool
        do throws(SystemCallError) {
            support = configuration.viewMode == .links ? .unsupported(reason: "not asked") : try FileClone.probe(in: viewsRoot)
            apart = libraryFilesystem?.isRemote == true ? try MountCheck.probe(library: library, views: viewsRoot) == .otherMount : false
        } catch {
            throw PhotoLibError.systemCall(name: error.call, path: configuration.views, errno: error.errno)
        }
        return try ViewModeDecision.decide(configuration.viewMode, support: support, filesystem: FileClone.filesystemName(of: viewsRoot),
                                           views: configuration.views, remoteLibraryApart: apart ? libraryFilesystem?.name : nil)
    }
}
