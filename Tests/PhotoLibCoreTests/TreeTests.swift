import PhotoLibCore
import Testing

@Suite("Album and watch trees")
struct TreeTests {
    func name(_ text: String) -> FileName { FileName(text)! }

    @Test("an album rename moves its whole subtree and keeps every ID")
    func albumRename() {
        var tree = AlbumTree()
        tree.insert(id: 2, parent: 1, name: name("Trips"))
        tree.insert(id: 3, parent: 2, name: name("2024"))
        tree.move(2, toParent: 1, name: name("Voyages"))
        #expect(tree.album(at: RelativePath(escaped: "Voyages/2024")!) == 3)
        #expect(tree.album(at: RelativePath(escaped: "Trips/2024")!) == nil)
        #expect(tree.path(of: 3)?.escaped == "Voyages/2024")
        #expect(tree.isWithin(3, 2))
        #expect(tree.ancestry(of: 3) == [3, 2, 1])
    }

    @Test("removing an album removes everything below it")
    func albumRemove() {
        var tree = AlbumTree()
        tree.insert(id: 2, parent: 1, name: name("a"))
        tree.insert(id: 3, parent: 2, name: name("b"))
        tree.insert(id: 4, parent: 1, name: name("c"))
        #expect(Set(tree.remove(2)) == [2, 3])
        #expect(tree.count == 2)
        #expect(tree.subtree(of: 1) == [1, 4])
    }

    @Test("watch paths follow nested directory renames (where libinotifytools goes wrong)")
    func nestedRenames() {
        var tree = WatchTree()
        tree.setRoot(1)
        tree.insert(2, parent: 1, name: name("a"))
        tree.insert(3, parent: 2, name: name("b"))
        tree.insert(4, parent: 3, name: name("c"))
        tree.move(3, toParent: 1, name: name("moved"))
        tree.move(2, toParent: 4, name: name("inside"))
        #expect(tree.path(of: 4)?.escaped == "moved/c")
        #expect(tree.path(of: 2)?.escaped == "moved/c/inside")
        #expect(tree.child(of: 2, named: name("b")) == nil)
    }

    @Test("detaching a directory forgets its subtree and reports its descriptors")
    func detach() {
        var tree = WatchTree()
        tree.setRoot(1)
        tree.insert(2, parent: 1, name: name("a"))
        tree.insert(3, parent: 2, name: name("b"))
        #expect(Set(tree.detach(2)) == [2, 3])
        #expect(tree.path(of: 3) == nil)
        #expect(tree.count == 1)
    }

    @Test("the same descriptor seen at a new place moves rather than duplicates")
    func reinsertMoves() {
        var tree = WatchTree()
        tree.setRoot(1)
        tree.insert(2, parent: 1, name: name("a"))
        tree.insert(2, parent: 1, name: name("b"))
        #expect(tree.child(of: 1, named: name("a")) == nil)
        #expect(tree.path(of: 2)?.escaped == "b")
    }
}

@Suite("View diff")
struct ViewDiffTests {
    @Test("only what differs is touched; a replaced inode is relinked")
    func diff() {
        let diff = ViewDiff<String>(
            present: ["keep": .file(PresentFile(inode: 1)), "stale": .file(PresentFile(inode: 2)), "replaced": .file(PresentFile(inode: 3)),
                      "dir": .directory, "link": .other],
            wanted: ["keep": .file(.link(inode: 1)), "replaced": .file(.link(inode: 30)), "new": .file(.link(inode: 4)), "album": .directory])
        #expect(Set(diff.unlinkFiles) == ["stale", "replaced", "link"])
        #expect(diff.removeDirectories == ["dir"])
        #expect(Set(diff.linkFiles) == ["replaced", "new"])
        #expect(diff.makeDirectories == ["album"])
    }

    @Test("an equal view needs nothing")
    func empty() {
        #expect(ViewDiff<String>(present: ["a": .file(PresentFile(inode: 1)), "d": .directory], wanted: ["a": .file(.link(inode: 1)), "d": .directory]).isEmpty)
    }

    @Test("a clone is current when it is another inode, alone, with the source's size and time; anything else is made again")
    func clones() {
        let stamp = ContentStamp(size: 4_194_304, modificationTime: 1_700_000_000_000_000_000)
        let edited = ContentStamp(size: 4_194_304, modificationTime: 1_700_000_000_500_000_000)
        let diff = ViewDiff<String>(
            present: ["current": .file(PresentFile(inode: 11, stamp: stamp, linkCount: 1)),
                      "older": .file(PresentFile(inode: 12, stamp: edited, linkCount: 1)),
                      "hardlink": .file(PresentFile(inode: 3, stamp: stamp, linkCount: 2)),
                      "shared": .file(PresentFile(inode: 14, stamp: stamp, linkCount: 2)),
                      "unlooked": .file(PresentFile(inode: 15))],
            wanted: ["current": .file(.clone(source: 1, stamp: stamp)), "older": .file(.clone(source: 2, stamp: stamp)),
                     "hardlink": .file(.clone(source: 3, stamp: stamp)), "shared": .file(.clone(source: 4, stamp: stamp)),
                     "unlooked": .file(.clone(source: 5, stamp: stamp))])
        // Another version, a hard link to the source (a view from links mode), a file linked
        // elsewhere too, and one whose stamp is not known are all made again, by a rename over them.
        #expect(Set(diff.linkFiles) == ["older", "hardlink", "shared", "unlooked"])
        #expect(WantedEntry.clone(source: 1, stamp: stamp).isHeld(by: PresentFile(inode: 11, stamp: stamp, linkCount: 1)))
        #expect(!WantedEntry.link(inode: 1).isHeld(by: PresentFile(inode: 11, stamp: stamp, linkCount: 1)))
    }

    @Test("an entry not placed now: an older clone stays while its source is mid-edit (skipped), never for a refusal; a link stays only if right")
    func keptWhenNotPlaced() {
        let stamp = ContentStamp(size: 10, modificationTime: 20)
        let older = PresentFile(inode: 11, stamp: ContentStamp(size: 9, modificationTime: 19), linkCount: 1)
        let clone = WantedEntry.clone(source: 1, stamp: stamp)
        #expect(clone.keeps(older, after: .skipped))
        #expect(!clone.keeps(older, after: .refused(.writableByOthers)))
        #expect(!clone.keeps(PresentFile(inode: 1, stamp: stamp, linkCount: 2), after: .skipped), "a hard link to the source is no clone")
        #expect(!clone.keeps(PresentFile(inode: 12, stamp: stamp, linkCount: 3), after: .skipped), "linked elsewhere: not ours")
        #expect(WantedEntry.link(inode: 1).keeps(PresentFile(inode: 1), after: .skipped))
        #expect(!WantedEntry.link(inode: 1).keeps(PresentFile(inode: 2), after: .skipped))
    }
}

@Suite("View mode")
struct ViewModeTests {
    @Test("auto clones where the filesystem can and links elsewhere, saying why; clones asked by name where they cannot be made is an error")
    func decide() throws {
        let unsupported = CloneSupport.unsupported(reason: "FICLONE: Operation not supported")
        let onXFS = try ViewModeDecision.decide(.auto, support: .supported, filesystem: "xfs", views: "/v")
        #expect(onXFS.form == .clones)
        #expect(onXFS.reason.contains("xfs"))
        let onExt4 = try ViewModeDecision.decide(.auto, support: unsupported, filesystem: "ext4", views: "/v")
        #expect(onExt4.form == .links)
        #expect(onExt4.reason.contains("ext4") && onExt4.reason.contains("cannot clone") && onExt4.reason.contains("Operation not supported"))
        #expect(try ViewModeDecision.decide(.links, support: .supported, filesystem: "btrfs", views: "/v").form == .links)
        #expect(try ViewModeDecision.decide(.clones, support: .supported, filesystem: "btrfs", views: "/v").form == .clones)
        #expect(throws: PhotoLibError.clonesUnsupported(views: "/v", filesystem: "ext4", reason: "FICLONE: Operation not supported")) {
            try ViewModeDecision.decide(.clones, support: unsupported, filesystem: "ext4", views: "/v")
        }
        let message = PhotoLibError.clonesUnsupported(views: "/v", filesystem: "ext4", reason: "FICLONE: Operation not supported").message
        #expect(message.contains("view_mode") && message.contains("/v"))
    }
}
