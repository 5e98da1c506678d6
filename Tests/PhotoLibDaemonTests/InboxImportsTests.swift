import Foundation
import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
@testable import PhotoLibDaemon
import PhotoLibStore
import PhotoLibSystem
import TestSupport
import Testing

/// The owner of imports on its own: a library and inboxes in a temporary directory, a store in memory;
/// no engine, no index, no view. What the engine does between its steps (the library's turn, the index's
/// transaction, the settle) is not here; what each step leaves on disk and in the store is.
@Suite("Imports from the apps' inboxes (their owner)")
final class InboxImportsTests {
    static let camera = AppID("org.example.Camera")!
    /// The first bytes of a JPEG: what the copy's check looks for.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: 60)

    final class Clock: WallClock, Sendable {
        func now() -> Int64 { 1_800_000_000 }
    }

    let root: String
    let store: Store
    let imports: InboxImports
    let app: AppRecord
    var library: String { root + "/library" }
    var inbox: String { imports.directories.path(of: app) }
    var album: String { library + "/Imported/" + Self.camera.rawValue }

    init() throws {
        root = try makeTemporaryDirectory("photolibd-imports")
        for directory in ["library", "views", "state", "state/inboxes"] {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: false)
        }
        let configuration = DaemonConfiguration(library: root + "/library", views: root + "/views", state: root + "/state",
                                                socket: root + "/state/photolibd.sock")
        store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        let record = AppRecord(id: Self.camera, uid: getuid(), purpose: "", readWrite: .limited, addOnly: .notDetermined,
                               viewName: FileName("view-camera")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator))
        app = record
        try store.write { try $0.insertApp(record, createdAt: 0) }
        let logger = Logger(label: "inbox-imports-test")
        let directories = InboxDirectories(path: configuration.inboxes, ownerUID: getuid(), watcher: try InboxWatcher(logger: logger), logger: logger)
        _ = directories.sync([record])
        imports = InboxImports(store: store, directories: directories, journal: ChangeJournal(retention: 1000), configuration: configuration,
                               clock: Clock(), logger: logger)
    }

    deinit {
        imports.directories.watcher.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    func write(_ path: String, _ bytes: [UInt8] = InboxImportsTests.jpeg) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func hidden(_ name: FileName) -> String { String(decoding: name.bytes, as: UTF8.self) }

    func status(_ name: String) throws -> FileStatus {
        let directory = try Directory.open(path: inbox)
        defer { directory.close() }
        return try #require(try Directory.status(of: FileName(name)!, in: directory))
    }

    @Test("an entry is left while pending or still being written, refused with its reason, or copied under the app's right")
    func judging() throws {
        try write(inbox + "/a.jpg")
        try write(inbox + "/.b.jpg")
        try write(inbox + "/c.jpg")
        #expect(link(inbox + "/c.jpg", root + "/elsewhere.jpg") == 0)
        try write(inbox + "/notes.txt", Array("notes".utf8))

        func judged(_ name: String, onlyCreated: Bool = false) throws -> String {
            switch try imports.judge(FileName(name)!, of: Self.camera, onlyCreated: onlyCreated) {
            case .leave: "leave"
            case .alreadyImported: "already imported"
            case .reject(_, let refusal, let bytes): "reject \(refusal.code) \(bytes)"
            case .copy(let app, let found, let right): "copy \(app.id) \(found.size) \(right)"
            }
        }
        #expect(try judged("a.jpg", onlyCreated: true) == "leave", "only created: its close says when it is whole")
        #expect(try judged("a.jpg") == "copy \(Self.camera) \(Self.jpeg.count) joinsSelection")
        #expect(try judged(".b.jpg") == "leave", "a hidden name is one still being written")
        #expect(try judged("c.jpg", onlyCreated: true) == "reject \(InboxRefusal.hardLinked(count: 2).code) \(Self.jpeg.count)",
                "a hard link is judged at once: it is whole, and it is refused")
        #expect(try judged("notes.txt") == "reject \(InboxRefusal.notAnAssetName.code) 5")
        #expect(try judged("gone.jpg") == "leave")
        #expect(try imports.judge(FileName("a.jpg")!, of: AppID("org.example.Nobody")!, onlyCreated: false).isLeave, "no inbox: nothing to take")
    }

    @Test("a refused entry moves into rejected/ beside what is there, never over it, and is recorded without costing the quota")
    func rejecting() throws {
        try write(inbox + "/c.jpg", Array("app's".utf8))
        try write(inbox + "/rejected/c.jpg", Array("earlier".utf8))
        let event = try imports.reject(FileName("c.jpg")!, of: Self.camera, .notAnAssetName, bytes: 5)
        #expect(event != nil)
        #expect(try String(contentsOfFile: inbox + "/rejected/c (2).jpg", encoding: .utf8) == "app's")
        #expect(try String(contentsOfFile: inbox + "/rejected/c.jpg", encoding: .utf8) == "earlier")
        #expect(!FileManager.default.fileExists(atPath: inbox + "/c.jpg"))
        #expect(try store.read { try $0.importUsage(Self.camera, since: 0) } == InboxUsage(files: 0, bytes: 0))
        #expect(try imports.reject(FileName("c.jpg")!, of: Self.camera, .notAnAssetName, bytes: 5) == nil, "gone meanwhile: nothing to tell")
    }

    @Test("an import's copy is hidden until it takes the app's name, or the first free one, never another's file; a stop after that is finished, not undone")
    func importing() async throws {
        try write(inbox + "/a.jpg")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        try write(album + "/a.jpg", Array("the person's".utf8))
        let found = try status("a.jpg")
        guard case .opened(let source, let opened) = try imports.open(FileName("a.jpg")!, of: Self.camera, found: found) else {
            Issue.record("a.jpg was not opened for its copy")
            return
        }
        defer { source.close() }
        let pending = try imports.begin(FileName("a.jpg")!, of: Self.camera, source: opened)
        defer { pending.close() }
        #expect(try store.read { try $0.unfinishedImports() }.map(\.id) == [pending.id], "the row comes before the copy")
        #expect(FileManager.default.fileExists(atPath: album + "/" + hidden(pending.temporary)))
        let outcome = try await ImportCopy.run(FileName("a.jpg")!, from: source, to: pending.copy, expectedSize: opened.size,
                                               limit: 1 << 20, mode: pending.mode)
        guard case .copied(let bytes, _, let inode) = outcome else {
            Issue.record("the copy was refused: \(outcome)")
            return
        }
        let placed = try imports.place(pending, as: FileName("a.jpg")!, bytes: bytes, copyInode: inode)
        #expect(placed == FileName("a (2).jpg")!)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: album + "/a (2).jpg"))) == Self.jpeg)
        #expect(try String(contentsOfFile: album + "/a.jpg", encoding: .utf8) == "the person's")
        #expect(!FileManager.default.fileExists(atPath: album + "/" + hidden(pending.temporary)))

        // Stopped here, before the index took it in: the next sweep finishes it, with the inbox file still the one copied.
        let recoveries = try imports.recover()
        #expect(recoveries.map(\.placed) == [placed])
        #expect(recoveries.first?.source?.inode == found.inode && recoveries.first?.right == .joinsSelection)
        try imports.removeInboxFile(FileName("a.jpg")!, of: Self.camera, ifStill: found)
        #expect(!FileManager.default.fileExists(atPath: inbox + "/a.jpg"))
    }

    @Test("a stop before the copy took a name: the hidden copy and its row go, and the inbox file, still there, is taken again")
    func cutShort() throws {
        try write(inbox + "/a.jpg")
        let found = try status("a.jpg")
        let pending = try imports.begin(FileName("a.jpg")!, of: Self.camera, source: found)
        pending.close()
        #expect(try imports.recover().isEmpty)
        #expect(try store.read { try $0.unfinishedImports() }.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: album).isEmpty)
        #expect(try imports.judge(FileName("a.jpg")!, of: Self.camera, onlyCreated: false).isCopy)
    }

    @Test("a file swapped after its look is not copied: a symlink is refused, another file is left to its own event")
    func swapped() throws {
        try write(inbox + "/a.jpg")
        let found = try status("a.jpg")
        // Kept, so no file made after it can be given its inode number.
        #expect(link(inbox + "/a.jpg", root + "/kept.jpg") == 0)
        #expect(unlink(inbox + "/a.jpg") == 0)
        #expect(symlink(root + "/library", inbox + "/a.jpg") == 0)
        guard case .refused(let refusal, _) = try imports.open(FileName("a.jpg")!, of: Self.camera, found: found) else {
            Issue.record("a symlink was opened")
            return
        }
        #expect(refusal == .symlink)
        #expect(unlink(inbox + "/a.jpg") == 0)
        try write(inbox + "/a.jpg")
        guard case .gone = try imports.open(FileName("a.jpg")!, of: Self.camera, found: found) else {
            Issue.record("another file was taken for the one looked at")
            return
        }
    }
}

extension InboxImportsTests {
    /// An import recorded as copying, and the copy it placed as `name` at the library's root, indexed.
    func placedCopy(_ name: String = "IMG_1.jpg", inode: UInt64 = 7) throws -> (id: Int64, asset: AssetRecord) {
        let file = DirectoryPlan.NewFile(name: FileName(name)!, mediaType: .image,
                                         facts: FileFacts(device: 9, inode: inode, size: 10, modificationTime: 0, permissions: 0o644), refusal: nil)
        return try store.write { tx in
            let id = try tx.beginImport(Self.camera, source: FileName("a.jpg")!, device: 9, inode: 3, birth: nil, album: .root, at: 0)
            return (id, try tx.insertNewAssets(album: AlbumTree.rootID, files: [file])[0])
        }
    }

    /// Commits the import of the copy placed as `name`, the index's batch having recorded `changes`.
    func commit(_ id: Int64, _ name: String = "IMG_1.jpg", right: InboxPolicy.Right, changes: [ViewChange],
                contexts: inout [AppViewContext]) throws -> InboxImports.Commit {
        let recorder = ChangeRecorder(recording: true)
        for change in changes { recorder.record(change) }
        return try store.write { tx in
            try imports.commit(id, of: app, name: FileName(name)!, in: .root, source: FileName("a.jpg")!, right: right, recorder: recorder,
                               albums: try tx.albumTree(), contexts: &contexts, decideWithoutLocation: { _, _ in }, tx: tx)
        }
    }

    static func kinds(_ commit: InboxImports.Commit) throws -> [String] {
        try commit.published.map { event in
            try #require(try JSONSerialization.jsonObject(with: Data(event.line)) as? [String: Any])["event"] as? String ?? "?"
        }
    }

    func context() throws -> AppViewContext {
        try store.read { tx in AppViewContext(app: app, policy: try tx.viewPolicy(of: app), appearance: { _ in .original }) }
    }

    @Test("a copy the index just took in joins a limited app's selection in the same transaction; the row says added; the app hears the change, then the import, with the photo as its view shows it")
    func committing() throws {
        let (id, asset) = try placedCopy()
        var contexts = [try context()]
        let located = try #require(LocatedAsset(asset, in: try store.read { try $0.albumTree() }))
        let done = try commit(id, right: .joinsSelection, changes: [.asset(old: nil, new: located)], contexts: &contexts)
        #expect(done.joinedUnchanged == nil, "the index recorded it: its change tells the view")
        #expect(contexts[0].policy.selectedAssets == [asset.rowID], "the views are planned with the photo selected")
        #expect(try store.read { try $0.isSelected(Self.camera, asset: asset.rowID) })
        #expect(try Self.kinds(done) == ["change", "import"])
        let told = try JSONDecoder().decode(ImportEvent.self, from: Data(try #require(done.published.last).line))
        #expect(told.state == "added" && told.asset?.id == app.assetIDs.id(for: asset.id).rawValue)
        #expect(try store.read { try $0.unfinishedImports() }.isEmpty, "the row is no longer copying")
    }

    @Test("a copy indexed before a stop joins the selection as it is: the view's change is told first; an app that may only add hears no photo")
    func committingAfterAStop() throws {
        let (id, asset) = try placedCopy()
        var contexts = [try context()]
        let done = try commit(id, right: .joinsSelection, changes: [], contexts: &contexts)
        #expect(done.joinedUnchanged?.rowID == asset.rowID)
        #expect(try Self.kinds(done) == ["change", "import"])

        let (other, _) = try placedCopy("IMG_2.jpg", inode: 8)
        var unchanged = [try context()]
        let added = try commit(other, "IMG_2.jpg", right: .addOnly, changes: [], contexts: &unchanged)
        #expect(added.joinedUnchanged == nil)
        #expect(try Self.kinds(added) == ["import"])
        let told = try JSONDecoder().decode(ImportEvent.self, from: Data(try #require(added.published.last).line))
        #expect(told.asset == nil && told.assetID == nil, "an app that may only add learns nothing of the library")
    }
}

extension InboxImports.Judgement {
    var isLeave: Bool { if case .leave = self { true } else { false } }
    var isCopy: Bool { if case .copy = self { true } else { false } }
}
