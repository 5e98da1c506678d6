import PhotoLibCore
import Testing

/// When new files a batch holds back must be stored, on fakes.
@Suite("Arrivals held for one statement")
struct PendingArrivalsTests {
    let a = RelativePath(escaped: "Trips/a.jpg")!, b = RelativePath(escaped: "Trips/b.jpg")!
    let c = RelativePath(escaped: "Home/c.jpg")!

    func file(_ path: RelativePath) -> DirectoryPlan.NewFile {
        DirectoryPlan.NewFile(name: path.lastComponent!, mediaType: .image,
                              facts: FileFacts(device: 1, inode: 2, size: 3, modificationTime: 4, permissions: 0o644))
    }

    @Test("nothing held: no step waits for a store")
    func empty() {
        let held = PendingArrivals()
        #expect(held.isEmpty)
        #expect(!held.mustStore(before: .moveFile(from: a, to: b)))
        #expect(!held.mustStore(before: .removeAlbum(RelativePath(escaped: "Trips")!)))
    }

    @Test("another file's refresh goes on holding; the same path's refresh, and every other step, store first")
    func rule() {
        var held = PendingArrivals()
        held.add(file(a), at: a, album: 5)
        #expect(!held.mustStore(before: .refreshFile(b, admission: .always)), "a burst of arrivals stays one batch")
        #expect(!held.mustStore(before: .refreshFile(c, admission: .never)))
        #expect(held.mustStore(before: .refreshFile(a, admission: .never)), "a file written again must find its row")
        #expect(held.mustStore(before: .refreshFile(a, admission: .ifHardLinked)))
        for step: IndexStep in [.moveFile(from: a, to: b), .moveFile(from: c, to: b), .moveAlbum(from: RelativePath(escaped: "Trips")!, to: c),
                                .scanNewDirectory(RelativePath(escaped: "New")!), .removeFile(c), .removeAlbum(RelativePath(escaped: "Home")!),
                                .rescanSubtree(RelativePath(escaped: "Trips")!), .fullScan(overflowed: false), .rootGone, .watchFailed(c)] {
            #expect(held.mustStore(before: step), "\(step) may read or change what is held")
        }
    }

    @Test("taken by album, albums and files in the order they arrived, and none held after")
    func take() {
        var held = PendingArrivals()
        held.add(file(a), at: a, album: 5)
        held.add(file(c), at: c, album: 9)
        held.add(file(b), at: b, album: 5)
        #expect(held.count == 3)
        let taken = held.take()
        #expect(taken.map(\.album) == [5, 9])
        #expect(taken[0].files.map(\.name) == [a.lastComponent!, b.lastComponent!])
        #expect(taken[1].files.map(\.name) == [c.lastComponent!])
        #expect(held.isEmpty && !held.mustStore(before: .refreshFile(a, admission: .always)), "a path taken may be held again")
        held.add(file(a), at: a, album: 5)
        #expect(held.count == 1)
    }
}
