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
            present: ["keep": .file(inode: 1), "stale": .file(inode: 2), "replaced": .file(inode: 3), "dir": .directory, "link": .other],
            wanted: ["keep": .file(inode: 1), "replaced": .file(inode: 30), "new": .file(inode: 4), "album": .directory])
        #expect(Set(diff.unlinkFiles) == ["stale", "replaced", "link"])
        #expect(diff.removeDirectories == ["dir"])
        #expect(Set(diff.linkFiles) == ["replaced", "new"])
        #expect(diff.makeDirectories == ["album"])
    }

    @Test("an equal view needs nothing")
    func empty() {
        #expect(ViewDiff<String>(present: ["a": .file(inode: 1), "d": .directory], wanted: ["a": .file(inode: 1), "d": .directory]).isEmpty)
    }
}
