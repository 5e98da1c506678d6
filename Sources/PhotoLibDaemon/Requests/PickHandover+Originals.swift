import Glibc
import PhotoLibCore
import PhotoLibSystem

extension PickHandover {
    /// Opens a chosen member's file in the library for reading (never through a symlink, never blocking
    /// on a FIFO) and checks it is still the indexed file, and one that may be shared (SPEC §3: the check a
    /// view's link makes; a pick reads the file as it is, so what forbids only a link does not forbid it).
    /// Each failure names the asset and the path; nothing is left open.
    static func openOriginal(_ member: LocatedMember, asset: AssetID, in access: LibraryAccess, ownerUID: UInt32) throws(PhotoLibError)
        -> FileDescriptor {
        func cannot(_ errno: Int32?) -> PhotoLibError { .pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: errno)) }
        guard let name = member.path.lastComponent else { throw cannot(nil) }
        let directory: FileDescriptor
        switch access.lookUpDirectory(member.path.parent ?? .root) {
        case .found(let fd): directory = fd
        case .gone: throw cannot(ENOENT)
        case .unreadable(let failure): throw cannot(failure.errno)
        }
        let (fd, status) = try openWithStatus(name, in: directory, cannot)
        switch LinkVerdict.judge(status.observation, expectedInode: member.file.inode, daemonUID: ownerUID) {
        case .link:
            return fd
        case .refuse(let refusal) where !refusal.forbidsSharing:
            return fd
        case .refuse(let refusal):
            fd.close()
            throw .pick(.refused(asset: asset.rawValue, path: member.path.escaped, refusal: refusal))
        case .notTheIndexedFile:
            fd.close()
            throw cannot(nil)
        }
    }

    /// Opens `name` in `directory` for reading (never through a symlink, never blocking on a FIFO) with
    /// its status; each failure is `cannot` with its errno, and nothing is left open.
    static func openWithStatus(_ name: FileName, in directory: FileDescriptor, _ cannot: (Int32?) -> PhotoLibError) throws(PhotoLibError)
        -> (FileDescriptor, FileStatus) {
        let fd: FileDescriptor
        do {
            fd = try FileCopy.openUntrusted(name, in: directory)
        } catch {
            throw cannot(error.errno)
        }
        do {
            return (fd, try Directory.status(of: fd))
        } catch {
            fd.close()
            throw cannot(error.errno)
        }
    }
}
