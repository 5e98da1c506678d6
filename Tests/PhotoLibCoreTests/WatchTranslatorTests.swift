import PhotoLibCore
import Testing

/// inotify's events as the kernel sends them, and what the watcher is told to do.
@Suite("What inotify events mean")
struct WatchTranslatorTests {
    func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }
    func name(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Root (1) with Trips (2) and Trips/2024 (3) watched.
    func tree() -> WatchTree {
        var tree = WatchTree()
        tree.setRoot(1)
        tree.insert(2, parent: 1, name: FileName("Trips")!)
        tree.insert(3, parent: 2, name: FileName("2024")!)
        return tree
    }

    @Test("a file's creation, its close after writing, a change of mode and its deletion, at their paths")
    func fileLife() {
        var translator = WatchTranslator()
        var tree = tree()
        #expect(translator.take(.init(watch: 3, flags: .create, name: name("a.jpg")), tree: &tree) == [.emit(.fileCreated(path("Trips/2024/a.jpg")))])
        #expect(translator.take(.init(watch: 3, flags: .closeWrite, name: name("a.jpg")), tree: &tree) == [.emit(.fileWritten(path("Trips/2024/a.jpg")))])
        #expect(translator.take(.init(watch: 3, flags: .attributes, name: name("a.jpg")), tree: &tree) == [.emit(.attributesChanged(path("Trips/2024/a.jpg")))])
        #expect(translator.take(.init(watch: 3, flags: .delete, name: name("a.jpg")), tree: &tree) == [.emit(.removed(path("Trips/2024/a.jpg"), isDirectory: false))])
    }

    @Test("the two halves of a rename, by cookie, are one move; a directory's watches follow it to its new place")
    func renamePair() {
        var translator = WatchTranslator()
        var tree = tree()
        #expect(translator.take(.init(watch: 2, flags: [.movedFrom, .isDirectory], cookie: 7, name: name("2024")), tree: &tree) == [])
        #expect(translator.hasPendingMove)
        let actions = translator.take(.init(watch: 1, flags: [.movedTo, .isDirectory], cookie: 7, name: name("2024 Summer")), tree: &tree)
        #expect(actions == [.emit(.moved(from: path("Trips/2024"), to: path("2024 Summer"), isDirectory: true))])
        #expect(tree.path(of: 3) == path("2024 Summer"), "the watch is the same; its path is the new one")
        #expect(!translator.hasPendingMove)
    }

    @Test("half a rename whose other half never comes left the library: its watches go and it is removed, when flushed or when another event comes")
    func movedOut() {
        var translator = WatchTranslator()
        var tree = tree()
        _ = translator.take(.init(watch: 1, flags: [.movedFrom, .isDirectory], cookie: 9, name: name("Trips")), tree: &tree)
        let flushed = translator.flush(tree: &tree)
        #expect(flushed.count == 2 && flushed.last == .emit(.removed(path("Trips"), isDirectory: true)))
        if case .unwatch(let keys) = flushed.first { #expect(Set(keys) == [2, 3]) } else { Issue.record("expected the watches to go: \(flushed)") }
        #expect(tree.path(of: 3) == nil)

        var other = self.tree()
        _ = translator.take(.init(watch: 2, flags: .movedFrom, cookie: 4, name: name("a.jpg")), tree: &other)
        let next = translator.take(.init(watch: 2, flags: .create, name: name("b.jpg")), tree: &other)
        #expect(next == [.emit(.removed(path("Trips/a.jpg"), isDirectory: false)), .emit(.fileCreated(path("Trips/b.jpg")))])
    }

    @Test("arrivals from outside: a file moved in; a directory moved in or created is watched first; a hidden directory is not in the library")
    func arrivals() {
        var translator = WatchTranslator()
        var tree = tree()
        #expect(translator.take(.init(watch: 1, flags: .movedTo, cookie: 3, name: name("c.jpg")), tree: &tree) == [.emit(.movedIn(path("c.jpg"), isDirectory: false))])
        #expect(translator.take(.init(watch: 2, flags: [.movedTo, .isDirectory], cookie: 5, name: name("Import")), tree: &tree)
                == [.watch(FileName("Import")!, parent: 2, parentPath: path("Trips")), .emit(.movedIn(path("Trips/Import"), isDirectory: true))])
        #expect(translator.take(.init(watch: 1, flags: [.create, .isDirectory], name: name("New")), tree: &tree)
                == [.watch(FileName("New")!, parent: 1, parentPath: .root), .emit(.directoryCreated(path("New")))])
        #expect(translator.take(.init(watch: 1, flags: [.create, .isDirectory], name: name(".thumbnails")), tree: &tree) == [])
    }

    @Test("a watched directory renamed to a dot-name (into a trash) left the library; one never seen that moves is new where it lands")
    func trashAndUnknown() {
        var translator = WatchTranslator()
        var tree = tree()
        _ = translator.take(.init(watch: 2, flags: [.movedFrom, .isDirectory], cookie: 11, name: name("2024")), tree: &tree)
        #expect(translator.take(.init(watch: 1, flags: [.movedTo, .isDirectory], cookie: 11, name: name(".Trash")), tree: &tree)
                == [.unwatch([3]), .emit(.removed(path("Trips/2024"), isDirectory: true))])
        _ = translator.take(.init(watch: 2, flags: [.movedFrom, .isDirectory], cookie: 12, name: name("Ghost")), tree: &tree)
        #expect(translator.take(.init(watch: 1, flags: [.movedTo, .isDirectory], cookie: 12, name: name("Found")), tree: &tree)
                == [.watch(FileName("Found")!, parent: 1, parentPath: .root), .emit(.movedIn(path("Found"), isDirectory: true))])
    }

    @Test("lost events rebuild every watch, dropping half a rename; the root's own removal is the library gone; another watch's removal is forgotten")
    func overflowAndRoot() {
        var translator = WatchTranslator()
        var tree = tree()
        _ = translator.take(.init(watch: 2, flags: .movedFrom, cookie: 1, name: name("a.jpg")), tree: &tree)
        #expect(translator.take(.init(watch: -1, flags: .queueOverflow), tree: &tree) == [.rebuild, .emit(.overflow)])
        #expect(!translator.hasPendingMove)
        #expect(translator.take(.init(watch: 3, flags: .ignored), tree: &tree) == [])
        #expect(tree.path(of: 3) == nil)
        #expect(translator.take(.init(watch: 1, flags: .moveSelf), tree: &tree) == [.rootGone])
        #expect(translator.take(.init(watch: 1, flags: .ignored), tree: &tree) == [.rootGone])
    }

    @Test("a directory deleted drops from the tree; one whose mode changed is watched if it was not (it may open now), and listed again")
    func directoryChanges() {
        var translator = WatchTranslator()
        var tree = tree()
        #expect(translator.take(.init(watch: 2, flags: [.delete, .isDirectory], name: name("2024")), tree: &tree)
                == [.emit(.removed(path("Trips/2024"), isDirectory: true))])
        #expect(tree.path(of: 3) == nil)
        #expect(translator.take(.init(watch: 1, flags: [.attributes, .isDirectory], name: name("Trips")), tree: &tree)
                == [.emit(.directoryAttributesChanged(path("Trips")))])
        #expect(translator.take(.init(watch: 1, flags: [.attributes, .isDirectory], name: name("Locked")), tree: &tree)
                == [.watch(FileName("Locked")!, parent: 1, parentPath: .root), .emit(.directoryAttributesChanged(path("Locked")))])
    }
}
