/// The POSIX ACL that lets one app's uid, and nobody else but the owner, into its view.
///
/// Encoded in the kernel's `system.posix_acl_access` / `system.posix_acl_default`
/// xattr format (what libacl writes), so setting it takes one `fsetxattr` and
/// no library: a version word, then `(tag, permissions, id)` entries sorted by tag.
public struct ViewAccessList: Sendable, Equatable {
    /// The app's uid, given read and enter (r-x).
    public let reader: UInt32

    public init(reader: UInt32) {
        self.reader = reader
    }

    static let version: UInt32 = 2
    static let undefinedID: UInt32 = 0xFFFF_FFFF
    enum Tag: UInt16 {
        case userObject = 0x01, user = 0x02, groupObject = 0x04, group = 0x08, mask = 0x10, other = 0x20
    }

    /// owner rwx, the app r-x, owning group none, mask r-x, others none.
    var entries: [(tag: Tag, permissions: UInt16, id: UInt32)] {
        [(.userObject, 7, Self.undefinedID), (.user, 5, reader), (.groupObject, 0, Self.undefinedID),
         (.mask, 5, Self.undefinedID), (.other, 0, Self.undefinedID)]
    }

    /// The xattr value, little-endian as the kernel expects.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        append(Self.version)
        for entry in entries {
            append(entry.tag.rawValue)
            append(entry.permissions)
            append(entry.id)
        }
        return bytes
    }
}
