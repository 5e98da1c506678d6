import Foundation
import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem
import Synchronization
import TestSupport

/// The engine on a temporary library, views and state, an in-memory store whose write
/// transactions are audited (`SystemCallAudit`), and a recorder in place of the
/// subscriptions' hub: each kind of change committed and settled, without a daemon,
/// a socket or the watcher (the test hands the engine the batches the watcher would).
final class TemporaryEngine {
    /// What the engine published, in order.
    final class Published: EventPublishing {
        private let events = Mutex<[PublishedEvent]>([])
        private let calls = Mutex(0)

        func publish(_ events: [PublishedEvent]) {
            calls.withLock { $0 += 1 }
            self.events.withLock { $0 += events }
        }

        /// How many times the engine published (once per settle) since the last call, and forgets it.
        func takePublishes() -> Int { calls.withLock { count in defer { count = 0 }; return count } }

        /// Each event's JSON, and forgets them.
        func take() -> [String] {
            events.withLock { events in
                defer { events.removeAll() }
                return events.map { String(decoding: $0.line, as: UTF8.self) }
            }
        }
    }

    /// A clock the test moves.
    final class Clock: WallClock, Sendable {
        let seconds = Atomic<Int64>(1_800_000_000)
        func now() -> Int64 { seconds.load(ordering: .relaxed) }
    }

    let root: String
    let audit = SystemCallAudit()
    let published = Published()
    let clock = Clock()
    let engine: Engine
    /// The engine's queue of watch events: a test pushes what the watcher would have queued meanwhile.
    let queue = EventQueue()
    let store: Store
    let configuration: DaemonConfiguration
    var library: String { root + "/library" }

    /// What a person names, as the router parses it: photos by ID or path, albums by path.
    func named(_ assets: [String], _ albums: [String] = []) throws -> NamedItems {
        try NamedItems(assets: assets, albums: albums, library: library)
    }

    /// `libraryLooker`: what a batch's probe looks at the library through (the disk unless a test stands in).
    /// `isolateLibrary`: whether batches look at the library on its own thread (nil: as its filesystem says).
    init(libraryLooker: @escaping LibraryLookerMaker = LibraryAccess.probing, isolateLibrary: Bool? = nil) async throws {
        root = try makeTemporaryDirectory("photolibd-engine")
        for directory in ["library", "views", "state", "state/inboxes", "home"] {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: false)
        }
        var configuration = DaemonConfiguration(library: root + "/library", views: root + "/views", state: root + "/state",
                                                socket: root + "/state/photolibd.sock")
        configuration.reportWatchesOpens = false
        configuration.flatpakPictures = FlatpakPicturesFolder(home: root + "/home", pictures: "Pictures")
        var logger = Logger(label: "engine-test")
        logger.logLevel = .warning
        self.configuration = configuration
        store = try Store(inMemory: (), observer: audit)
        engine = try Engine(configuration: configuration, store: store, queue: queue,
                            board: StatusBoard(), hub: published, logger: logger, clock: clock, ownerUID: getuid(),
                            libraryLooker: libraryLooker, isolateLibrary: isolateLibrary)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes a file into the library (its albums made as needed).
    func write(_ path: String, _ text: String = "photo") throws {
        let url = URL(fileURLWithPath: library + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The geotagged photo of the location tests, at `path` in the library.
    func writeGeotagged(_ path: String) async throws {
        let url = URL(fileURLWithPath: library + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await FileManager.default.copyItem(atPath: try media("photo.jpg"), toPath: url.path)
    }

    /// One of the location tests' media (`photo.jpg`, `plain.jpg`, …), made on first use.
    func media(_ name: String) async throws -> String {
        let media = root + "/media"
        if !FileManager.default.fileExists(atPath: media + "/photo.jpg") {
            try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("scripts/make-geotagged-media").path
            try await ChildProcess.runSuccessfully(script, [media], timeout: 300)
        }
        return media + "/" + name
    }

    /// The names in an app's view directory (and below it, as `Album/name`), hidden ones left out.
    func view(of app: AppRecord) throws -> Set<String> {
        let top = root + "/views/" + app.viewName.description
        guard let enumerator = FileManager.default.enumerator(atPath: top) else { return [] }
        var names: Set<String> = []
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: top + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue,
               !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                names.insert(name)
            }
        }
        return names
    }

    static let owner = EventActor(uid: getuid(), role: .admin)
    static func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }
}
