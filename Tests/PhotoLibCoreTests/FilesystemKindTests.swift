import PhotoLibCore
import Testing

@Suite("Which filesystem a library is on")
struct FilesystemKindTests {
    @Test("network and FUSE filesystems are remote, local ones are not", arguments: [
        (0x6969, "nfs", true), (0xFF53_4D42, "cifs", true), (0xFE53_4D42, "smb2", true), (0x517B, "smb", true),
        (0x6573_5546, "fuse", true), (0x0102_1997, "9p", true), (0x00C3_6400, "ceph", true),
        (0xEF53, "ext4", false), (0x5846_5342, "xfs", false), (0x9123_683E, "btrfs", false), (0x0102_1994, "tmpfs", false),
    ] as [(UInt, String, Bool)])
    func kinds(magic: UInt, name: String, remote: Bool) {
        let kind = FilesystemKind(magic: magic)
        #expect(kind.name == name)
        #expect(kind.isRemote == remote)
    }

    @Test("an unknown type is named by its number and taken as local; the high bits statfs may sign-extend are dropped")
    func unknown() {
        #expect(FilesystemKind(magic: 0x1234).name == "0x1234")
        #expect(!FilesystemKind(magic: 0x1234).isRemote)
        #expect(FilesystemKind(magic: 0xFFFF_FFFF_FF53_4D42).name == "cifs")
    }

    @Test("a directory's link count proves it has no sub-directory only where the count means it (2 on ext4, XFS, tmpfs)")
    func leaves() {
        for local in [0xEF53, 0x5846_5342, 0x0102_1994] as [UInt] {
            #expect(FilesystemKind(magic: local).provesNoSubdirectories(linkCount: 2))
            #expect(!FilesystemKind(magic: local).provesNoSubdirectories(linkCount: 3))
            #expect(!FilesystemKind(magic: local).provesNoSubdirectories(linkCount: 1), "ext4 past 65,000 sub-directories")
        }
        for other in [0x9123_683E, 0x6573_5546, 0x6969, 0x1234] as [UInt] {
            #expect(!FilesystemKind(magic: other).provesNoSubdirectories(linkCount: 2), "btrfs, FUSE, NFS, unknown")
        }
    }
}
