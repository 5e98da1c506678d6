/// Who may read, write or enter one file or directory: its owner, group, mode
/// bits and POSIX ACL, judged the way the kernel does (acl(5), "ACCESS CHECK ALGORITHM").
///
/// Doctor uses it to say whether an app's uid can reach the socket. Judging by
/// the "others" bits alone called a directory closed that the app enters
/// through its group or a named ACL entry.
public struct AccessRule: Sendable, Equatable {
    /// Permission bits, as in a mode's low three: read 4, write 2, execute (enter) 1.
    public typealias Bits = UInt16

    public var owner: UInt32
    public var group: UInt32
    /// Owner, owning group and others, each three bits. With an ACL that has a
    /// mask, the group bits of the mode *are* the mask; `groupObject` holds the group's own.
    public var ownerBits: Bits
    public var groupObject: Bits
    public var otherBits: Bits
    public var namedUsers: [UInt32: Bits] = [:]
    public var namedGroups: [UInt32: Bits] = [:]
    public var mask: Bits?

    /// A file with no ACL: the mode alone.
    public init(owner: UInt32, group: UInt32, permissions: UInt32) {
        self.owner = owner
        self.group = group
        ownerBits = Bits((permissions >> 6) & 7)
        groupObject = Bits((permissions >> 3) & 7)
        otherBits = Bits(permissions & 7)
    }

    /// A file with the ACL `xattr` (the `system.posix_acl_access` value); nil when it is malformed.
    public init?(owner: UInt32, group: UInt32, permissions: UInt32, xattr: [UInt8]) {
        self.init(owner: owner, group: group, permissions: permissions)
        guard xattr.count >= 4, (xattr.count - 4) % 8 == 0, Self.little(xattr, 0, 4) == ViewAccessList.version else { return nil }
        for start in stride(from: 4, to: xattr.count, by: 8) {
            let bits = Bits(Self.little(xattr, start + 2, 2) & 7)
            let id = UInt32(Self.little(xattr, start + 4, 4))
            switch ViewAccessList.Tag(rawValue: UInt16(Self.little(xattr, start, 2))) {
            case .userObject: ownerBits = bits
            case .user: namedUsers[id] = bits
            case .groupObject: groupObject = bits
            case .group: namedGroups[id] = bits
            case .mask: mask = bits
            case .other: otherBits = bits
            case nil: return nil
            }
        }
    }

    /// Whether a process with `uid` and `groups` (primary and supplementary) may do all of `wanted`.
    public func allows(_ wanted: Bits, uid: UInt32, groups: Set<UInt32>) -> Bool {
        if uid == 0 { return true }  // CAP_DAC_OVERRIDE
        if uid == owner { return ownerBits & wanted == wanted }
        let limit = mask ?? 7
        if let bits = namedUsers[uid] { return bits & limit & wanted == wanted }
        // Every matching group entry is a candidate; a match that grants none of
        // them denies, even when "others" would allow.
        var matched = false
        if groups.contains(group) {
            matched = true
            if groupObject & limit & wanted == wanted { return true }
        }
        for (id, bits) in namedGroups where groups.contains(id) {
            matched = true
            if bits & limit & wanted == wanted { return true }
        }
        if matched { return false }
        return otherBits & wanted == wanted
    }

    private static func little(_ bytes: [UInt8], _ start: Int, _ count: Int) -> UInt32 {
        (0..<count).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * $1) }
    }
}
