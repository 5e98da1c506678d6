import PhotoLibCore
import Testing

/// Views of references (a library on a network filesystem, the views on the local disk), on values:
/// when they are chosen, what an entry must hold, and when one present is right.
@Suite("Views of references")
struct ReferenceViewTests {
    static func name(_ text: String) -> FileName { FileName(text)! }

    @Test("A remote library apart from the views makes references whatever the setting; anywhere else the setting decides as before")
    func decided() throws {
        let references = try ViewModeDecision.decide(.clones, support: .unsupported(reason: "EXDEV"), filesystem: "ext4", views: "/v",
                                                     remoteLibraryApart: "fuse")
        #expect(references.form == .references && references.reason.contains("fuse") && references.reason.contains("ext4"))
        let links = try ViewModeDecision.decide(.auto, support: .unsupported(reason: "no"), filesystem: "ext4", views: "/v", remoteLibraryApart: nil)
        #expect(links.form == .links)
    }

    @Test("An original's entry names its path from the library's top; a copy without location stays a link (it is on the views' filesystem)")
    func wanted() {
        let file = FileFacts(device: 1, inode: 7, size: 10, modificationTime: 3, permissions: 0o644)
        let original = LinkSource(album: RelativePath([Self.name("Trips"), Self.name("2024")]), name: Self.name("a b.jpg"), rowID: 4, file: file)
        #expect(original.wanted(.references) == .reference(target: Array("/Trips/2024/a b.jpg".utf8)))
        let derivative = LinkSource(derivativeOf: 4, inode: 99, size: 8, original: file)
        #expect(derivative.wanted(.references) == .link(inode: 99))
    }

    @Test("A reference is held by a symbolic link with its very target, never by a file; a link or a clone never by a reference")
    func held() {
        let wanted = WantedEntry.reference(target: Array("/Trips/a.jpg".utf8))
        #expect(wanted.isHeld(by: PresentFile(inode: 3, target: Array("/Trips/a.jpg".utf8))))
        #expect(!wanted.isHeld(by: PresentFile(inode: 3, target: Array("/Home/a.jpg".utf8))), "renamed in the library: made again")
        #expect(!wanted.isHeld(by: PresentFile(inode: 3)), "a regular file where a reference is wanted")
        #expect(!WantedEntry.link(inode: 3).isHeld(by: PresentFile(inode: 3, target: Array("/a.jpg".utf8))))
        let clone = WantedEntry.clone(source: 3, stamp: ContentStamp(size: 1, modificationTime: 2))
        #expect(!clone.keeps(PresentFile(inode: 9, stamp: ContentStamp(size: 1, modificationTime: 2), linkCount: 1, target: [0x2F]), after: .skipped))
        #expect(!wanted.keeps(PresentFile(inode: 3, target: Array("/old.jpg".utf8)), after: .skipped), "a stale reference never stays")
    }

    @Test("/etc/fuse.conf allows allow_other only with a line of user_allow_other alone (spaces aside), never in a comment")
    func fuseConfiguration() {
        #expect(!FuseConfiguration.allowsOther("# user_allow_other - Using the allow_other mount option\n#user_allow_other\n#mount_max = 1000\n"))
        #expect(FuseConfiguration.allowsOther("#mount_max = 1000\n  user_allow_other  \n"))
        #expect(FuseConfiguration.allowsOther("user_allow_other # for photolibd\n"))
        #expect(!FuseConfiguration.allowsOther("user_allow_others\n") && !FuseConfiguration.allowsOther(""))
    }
}
