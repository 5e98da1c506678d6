import PhotoLibCore
import PhotoLibSystem

extension PickHandover {
    /// Opens every file of a pick's deliveries, in order: each original checked (`openOriginal`), or the
    /// derivative without location that `source` names in its place (the same one the app's view would
    /// link), and the original's directory, where a private copy is made. All or nothing: on an error,
    /// whatever was opened is closed, and the error names the asset and the path.
    static func open(_ deliveries: [PickPolicy.Delivery], copies: Bool, in access: LibraryAccess, ownerUID: UInt32,
                     derivatives: FileDescriptor, source: (LocatedMember) -> EntrySource) throws -> [PreparedPick.OpenedMember] {
        var opened: [PreparedPick.OpenedMember] = []
        do {
            for delivery in deliveries {
                for (member, format) in zip(delivery.members, delivery.formats) {
                    let original = try openOriginal(member, asset: delivery.asset.id, in: access, ownerUID: ownerUID)
                    let (file, size) = try withoutLocation(original, member, asset: delivery.asset.id, source: source(member),
                                                           derivatives: derivatives)
                    let directory: FileDescriptor
                    do {
                        directory = try Directory.open(member.path.parent ?? .root, in: access.root)
                    } catch {
                        file.close()
                        throw PhotoLibError.pick(.cannotOpen(asset: delivery.asset.id.rawValue, path: member.path.escaped, errno: error.errno))
                    }
                    opened.append(.init(member: member, original: file, size: size, copyDirectory: directory, mustCopy: copies, format: format))
                }
            }
        } catch {
            for file in opened {
                file.original.close()
                file.copyDirectory.close()
            }
            throw error
        }
        return opened
    }

    /// The file to hand over for a member whose original is open: the original itself, or, where the
    /// app may not see where it was taken, the derivative `source` names, checked to be that one.
    /// Closes the original when it is not what is handed.
    static func withoutLocation(_ original: FileDescriptor, _ member: LocatedMember, asset: AssetID, source: EntrySource,
                                derivatives: FileDescriptor) throws(PhotoLibError) -> (FileDescriptor, Int64) {
        func cannot(_ errno: Int32?) -> PhotoLibError { .pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: errno)) }
        switch source {
        case .original:
            return (original, member.file.size)
        case .derivative(let inode, _):
            original.close()
            let (derivative, status) = try openWithStatus(DerivativeCatalog.derivativeName(member.rowID), in: derivatives, cannot)
            guard status.inode == inode else {
                derivative.close()
                throw cannot(nil)
            }
            return (derivative, status.size)
        case .withheld(let reason):
            original.close()
            throw .pick(.locationUnknown(asset: asset.rawValue, path: member.path.escaped, reason: reason))
        case .needsCheck:  // `ViewMaintainer.source` always looks first; never returned
            original.close()
            throw cannot(nil)
        }
    }
}
