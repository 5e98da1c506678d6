/// A POSIX ACL that lets named app uids, and nobody else but the owner, into a directory.
///
/// Two shapes are used: an app's own view (its uid may read and enter, `r-x`),
/// and a directory photolibd made above the views, which every app uid may
/// pass through (`--x`) to reach its view and may not list.
///
/// Encoded in the kernel's `system.posix_acl_access` / `system.posix_acl_default`
/// xattr format (what libacl writes), so setting it takes one `fsetxattr` and
/// no library: a version word, then `(tag, permissions, id)` entries sorted by
/// tag, and named users by uid.
public struct ViewAccessList: Sendable, Equatable {
    /// The uids given `permissions`, ascending and without repeats.
    public let users: [UInt32]
    /// What each named uid may do, which is also the mask: read 4, enter 1.
    public let permissions: UInt16

    /// An app's view: `reader` may read and enter (r-x).
    public init(reader: UInt32) {
        users = [reader]
        permissions = 5
    }

    /// An app's endpoint socket: `user` may connect (connecting needs write, `rw-`).
    public init(endpointUser user: UInt32) {
        users = [user]
        permissions = 6
    }

    /// An app's inbox: `writer` may list, create, rename and delete there (rwx).
    public init(inboxWriter writer: UInt32) {
        users = [writer]
        permissions = 7
    }

    /// The default ACL of an inbox, inherited by the files an app with a uid of
    /// its own writes there: the library's owner (`owner`) may read them, though
    /// the app owns them (within the mode the app creates them with).
    public init(inboxFilesReadableBy owner: UInt32, writer: UInt32) {
        users = Set([owner, writer]).sorted()
        permissions = 7
    }

    /// A directory above the views: each uid may enter it (--x), and nothing more.
    public init(passage uids: some Sequence<UInt32>) {
        users = Set(uids).sorted()
        permissions = 1
    }

    /// The ACL for a directory photolibd made above the views, given every app's uid:
    /// the apps that run as someone else than the owner pass; nil when there are none
    /// (then the directory is the owner's alone, 0700, with no ACL).
    public static func passage(appUIDs: some Sequence<UInt32>, owner: UInt32) -> ViewAccessList? {
        let others = appUIDs.filter { $0 != owner && $0 != 0 }
        return others.isEmpty ? nil : ViewAccessList(passage: others)
    }

    static let version: UInt32 = 2
    static let undefinedID: UInt32 = 0xFFFF_FFFF
    enum Tag: UInt16 {
        case userObject = 0x01, user = 0x02, groupObject = 0x04, group = 0x08, mask = 0x10, other = 0x20
    }

    /// owner rwx, each named uid `permissions`, owning group none, mask `permissions`, others none.
    var entries: [(tag: Tag, permissions: UInt16, id: UInt32)] {
        [(.userObject, 7, Self.undefinedID)] + users.map { (.user, permissions, $0) }
            + [(.groupObject, 0, Self.undefinedID), (.mask, permissions, Self.undefinedID), (.other, 0, Self.undefinedID)]
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
