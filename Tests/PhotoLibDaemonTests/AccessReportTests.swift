import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibStore
import Logging
import Synchronization
import Testing

/// The access report on its own, on a store in memory: opens named as each app's view names them, one
/// line per app and asset a minute, dropped after the retention; no view, no watcher, no engine.
@Suite("The access report (its owner)")
struct AccessReportTests {
    static let limited = AppID("org.example.Frame")!
    static let full = AppID("org.example.Viewer")!

    /// A clock the test moves.
    final class Clock: WallClock {
        let seconds = Mutex<Int64>(1_800_000_000)
        func now() -> Int64 { seconds.withLock { $0 } }
        func nowMilliseconds() -> Int64 { now() * 1000 }
    }

    let store: Store
    let clock = Clock()
    let report: AccessReport
    let photos: [AssetRecord]
    let frame: AppRecord

    init() throws {
        store = try Store(inMemory: ())
        report = AccessReport(watcher: nil, store: store, clock: clock, retention: 86_400, logger: Logger(label: "access-report-test"))
        var generator = SystemRandomNumberGenerator()
        let frame = AppRecord(id: Self.limited, uid: 4242, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                              viewName: FileName("view-frame")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator))
        let viewer = AppRecord(id: Self.full, uid: 4243, purpose: "", readWrite: .authorized, addOnly: .notDetermined,
                               viewName: FileName("view-viewer")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator))
        let files = (1...2).map { index in
            DirectoryPlan.NewFile(name: FileName("IMG_\(index).jpg")!, mediaType: .image,
                                  facts: FileFacts(device: 9, inode: UInt64(index), size: 10, modificationTime: 0, permissions: 0o644),
                                  refusal: nil)
        }
        photos = try store.write { tx in
            try tx.insertApp(frame, createdAt: 0)
            try tx.insertApp(viewer, createdAt: 0)
            let photos = try tx.insertNewAssets(album: AlbumTree.rootID, files: files)
            _ = try tx.selectAssets(Self.limited, rowIDs: [photos[0].rowID])
            return photos
        }
        self.frame = frame
    }

    func open(_ app: AppID, _ path: String, at offset: Int64) -> ViewOpenWatcher.Open {
        ViewOpenWatcher.Open(app: app, path: RelativePath(escaped: path)!, at: clock.now() + offset)
    }

    func logged(_ app: AppID) throws -> [AccessLogEntry] {
        try store.read { try $0.accessLog(app: app) }
    }

    @Test("a limited view's entry is its asset by the app's own ID, a full view's by its path; a burst within a minute is one line; what no shared asset is, none")
    func opens() throws {
        let shown = frame.assetIDs.id(for: photos[0].id).rawValue
        let hidden = frame.assetIDs.id(for: photos[1].id).rawValue
        report.record([open(Self.limited, shown + ".jpg", at: 0), open(Self.limited, shown + ".jpg", at: 10),
                       open(Self.limited, "." + shown + ".jpg.tmp", at: 11), open(Self.limited, hidden + ".jpg", at: 12),
                       open(Self.full, "IMG_2.jpg", at: 13), open(Self.full, "Missing/IMG_9.jpg", at: 14)], albums: AlbumTree())
        #expect(try logged(Self.limited).map(\.asset) == [photos[0].id], "one line for the burst; a hidden link and an asset not shared with it, none")
        #expect(try logged(Self.full).map(\.asset) == [photos[1].id])
        #expect(try logged(Self.limited).allSatisfy { $0.how == .open && $0.request == nil })
        report.record([open(Self.limited, shown + ".jpg", at: 70)], albums: AlbumTree())
        #expect(try logged(Self.limited).count == 2, "a minute later, a line of its own")
    }

    @Test("lines older than the retention are dropped, at start and with the opens once an hour; newer ones stay")
    func retention() throws {
        let shown = frame.assetIDs.id(for: photos[0].id).rawValue
        report.record([open(Self.limited, shown + ".jpg", at: 0)], albums: AlbumTree())
        clock.seconds.withLock { $0 += 86_400 + 1 }
        report.record([open(Self.full, "IMG_1.jpg", at: 0)], albums: AlbumTree())
        #expect(try logged(Self.limited).isEmpty, "a day and a second old, pruned with the next opens")
        #expect(try logged(Self.full).count == 1)
        clock.seconds.withLock { $0 += 86_400 + 1 }
        report.prune()
        #expect(try logged(Self.full).isEmpty)
    }
}
