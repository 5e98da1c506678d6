import PhotoLibCore
import PhotoLibStore
import Testing

/// The views' stamps between a clean stop and the next start.
@Suite("View stamps in the store")
struct ViewStampStoreTests {
    @Test("recorded stamps are taken once, whole: the first take deletes them, a second finds none; a new record replaces the old")
    func takenOnce() throws {
        let store = try Store(inMemory: ())
        let app = AppID("org.example.Viewer")!
        let stamps = ViewStamps(sentinel: 1_700_000_000_123_456_789, fingerprint: "photolibd 0.1.0; links",
                                directories: [app: [AlbumTree.rootID: ViewStamp(device: UInt64.max, inode: 1 << 63, birthTime: nil,
                                                                               changeTime: 5, modificationTime: 6),
                                                    7: ViewStamp(device: 2, inode: 3, birthTime: 4, changeTime: 5, modificationTime: 6)]])
        try store.write { try $0.recordViewStamps(ViewStamps(sentinel: 1, fingerprint: "old", directories: [app: [9: ViewStamp(
            device: 1, inode: 1, birthTime: 1, changeTime: 1, modificationTime: 1)]])) }
        try store.write { try $0.recordViewStamps(stamps) }
        #expect(try store.write { try $0.takeViewStamps() } == stamps)
        #expect(try store.write { try $0.takeViewStamps() } == nil)
    }
}
