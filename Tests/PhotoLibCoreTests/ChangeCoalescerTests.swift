import PhotoLibCore
import Testing

@Suite("Coalescing change details")
struct ChangeCoalescerTests {
    func asset(_ id: String, _ entry: String = "e", size: Int64 = 1) -> ViewAsset {
        ViewAsset(id: id, entry: entry, mediaType: "image", size: size, mtime: 0)
    }

    @Test("each asset appears once, by where it started and where it ended")
    func oneBatch() {
        var c = ChangeCoalescer()
        c.add(id: "a", old: nil, new: asset("a"))                     // created
        c.add(id: "a", old: asset("a"), new: asset("a", size: 2))     // then written
        c.add(id: "b", old: asset("b"), new: nil)                     // deleted
        c.add(id: "t", old: nil, new: asset("t"))                     // created and deleted: nothing
        c.add(id: "t", old: asset("t"), new: nil)
        c.add(id: "m", old: asset("m", "x"), new: asset("m", "y"))    // renamed
        c.add(id: "s", old: asset("s"), new: asset("s"))              // nothing visible changed
        let d = c.details
        #expect(d.inserted == [asset("a", size: 2)])
        #expect(d.removed == [asset("b")])
        #expect(d.changed == [asset("m", "y")])
    }

    @Test("events merged for a resume keep changed entries and cancel out round trips")
    func acrossEvents() {
        var c = ChangeCoalescer()
        c.add(ChangeDetails(changed: [asset("c", size: 5)]))
        c.add(ChangeDetails(inserted: [asset("n")]))
        c.add(ChangeDetails(removed: [asset("n")]))
        c.add(ChangeDetails(removed: [asset("r")]))
        c.add(ChangeDetails(inserted: [asset("r", size: 9)]))
        c.add(ChangeDetails(removed: [asset("gone")]))
        let d = c.details
        #expect(d.changed == [asset("c", size: 5), asset("r", size: 9)])
        #expect(d.inserted.isEmpty)
        #expect(d.removed == [asset("gone")])
    }

    @Test("changes out of the view before and after say nothing, and do not disturb an asset seen before")
    func invisibleChanges() {
        var c = ChangeCoalescer()
        c.add(id: "h", old: nil, new: nil)                            // never shared: nothing
        c.add(id: "v", old: nil, new: asset("v"))                     // shared, then unshared in the same batch
        c.add(id: "v", old: asset("v"), new: nil)
        c.add(id: "v", old: nil, new: nil)
        c.add(id: "w", old: asset("w"), new: nil)                     // left the view, then an invisible change
        c.add(id: "w", old: nil, new: nil)
        let d = c.details
        #expect(d.inserted.isEmpty && d.changed.isEmpty)
        #expect(d.removed == [asset("w")])
    }
}
