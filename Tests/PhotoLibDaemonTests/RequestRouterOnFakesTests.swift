import Foundation
import Glibc
import Logging
import NIOEmbedded
import PhotoLibConfiguration
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem
import Synchronization
import Testing

/// The router built from fakes of what it asks (`LibraryChanges`, the watcher, the endpoints) and a
/// store in memory: no engine, library or views. What reaches the engine is typed and checked, what
/// the router refuses never reaches it, and the engine's refusal is the reply.
@Suite("The request router, on fakes")
struct RequestRouterOnFakesTests {
    static let viewer = AppID("org.example.Viewer")!

    /// The engine's face, faked: each call written down in words, answered with `record`, or refused with `failure`.
    final class FakeChanges: LibraryChanges {
        let asked = Mutex<[String]>([])
        let record: AppRecord
        let failure: PhotoLibError?

        init(record: AppRecord, failure: PhotoLibError?) {
            self.record = record
            self.failure = failure
        }

        private func note(_ call: String) throws {
            asked.withLock { $0.append(call) }
            if let failure { throw failure }
        }

        func addApp(_ app: AppID, uid: UInt32, purpose: String, location: LocationPolicy, flatpak: Bool) async throws -> AppRecord {
            try note("addApp \(app) uid \(uid) location \(location.rawValue) flatpak \(flatpak)")
            return record
        }
        func setLocation(_ app: AppID, _ policy: LocationPolicy) async throws -> AppRecord {
            try note("setLocation \(app) \(policy.rawValue)")
            return record
        }
        func setCaptions(_ app: AppID, shared: Bool) async throws -> AppRecord {
            try note("setCaptions \(app) \(shared)")
            return record
        }
        func removeApp(_ app: AppID) async throws { try note("removeApp \(app)") }
        func authorize(_ app: AppID, access: AccessLevel, status: AuthorizationStatus, by: EventActor, endsAt: Int64?,
                       confirmed: Bool) async throws -> AppRecord {
            try note("authorize \(app) \(access.rawValue) \(status.rawValue) by \(by.role) until \(endsAt.map(String.init) ?? "-")")
            return record
        }
        func editSelection(_ app: AppID, _ named: NamedItems, adding: Bool, by: EventActor,
                           endsAt: Int64?) async throws -> Engine.SelectionEditOutcome {
            try note("\(adding ? "select" : "deselect") \(app) \(named.assets.map(\.typed)) \(named.albums.map(\.path.escaped)) by \(by.role) until \(endsAt.map(String.init) ?? "-")")
            return Engine.SelectionEditOutcome(assets: [], albums: named.albums.map(\.path), refused: [], added: [], settled: [])
        }
        func addRule(_ app: AppID, from: Int64, to: Int64, mediaType: MediaType?) async throws -> CaptureRule {
            try note("addRule \(app) \(from)..<\(to)")
            throw PhotoLibError.unknownApp(app)
        }
        func removeRules(_ app: AppID, ids: [Int64]?) async throws -> [CaptureRule] {
            try note("removeRules \(app) \(ids.map { "\($0)" } ?? "all")")
            return []
        }
        func ask(_ app: AppID, kind: RequestKind, waiter: RequestAnswers.Waiter?) async throws -> RequestOutcome {
            try note("ask \(app)")
            return RequestOutcome(app: app, kind: kind, request: nil, state: .answered, status: .limited)
        }
        func askPick(_ app: AppID, options: PickOptions, notify: Bool, waiter: PickWaiter) async throws { try note("askPick \(app) notify \(notify)") }
        func answer(_ request: Int64, with answer: RequestAnswer, _ named: NamedItems, by: EventActor,
                    reason: CancelReason?) async throws -> RequestOutcome {
            try note("answer \(request) \(answer.rawValue)")
            throw PhotoLibError.unknownRequest(request)
        }
        func answerPick(_ request: Int64, _ named: NamedItems, location: Bool?, captions: Bool?) async throws -> RequestOutcome {
            try note("answerPick \(request)")
            throw PhotoLibError.unknownRequest(request)
        }
        func rescan(rewatch: @escaping @Sendable () -> Void) async throws {
            try note("rescan")
            rewatch()
        }
        func installedApps() async throws -> [(app: InstalledFlatpakApp, registered: Bool, running: Bool)] {
            try note("installedApps")
            return []
        }
        func isInstalledFlatpak(_ app: AppID) throws -> Bool { false }
        func withdrawPicks(of connection: ObjectIdentifier) async { asked.withLock { $0.append("withdrawPicks") } }
    }

    final class FakeWatcher: LibraryRewatching {
        let rewatches = Mutex(0)
        func requestRewatch() { rewatches.withLock { $0 += 1 } }
    }

    struct Fixture {
        let changes: FakeChanges
        let watcher = FakeWatcher()
        let hub = SubscriptionHub()
        let clock = TemporaryEngine.Clock()
        let requests = RequestDesk(prompter: DesktopPrompter(logger: Logger(label: "router-fakes"), socket: "/nowhere/photolibd.sock"))
        let router: RequestRouter

        init(failure: PhotoLibError? = nil) throws {
            let store = try Store(inMemory: ())
            var generator = SystemRandomNumberGenerator()
            let record = AppRecord(id: RequestRouterOnFakesTests.viewer, uid: 4242, purpose: "Shows photos", readWrite: .limited,
                                   addOnly: .notDetermined, viewName: FileName("view-viewer")!, location: .precise,
                                   assetIDs: AppAssetIDs.random(using: &generator))
            try store.write { tx in try tx.insertApp(record, createdAt: 0) }
            changes = FakeChanges(record: record, failure: failure)
            let configuration = DaemonConfiguration(library: "/photos", views: "/views", state: "/state", socket: "/state/photolibd.sock")
            router = RequestRouter(changes: changes, requests: requests, store: store, board: StatusBoard(), configuration: configuration,
                                   ownerUID: 1000, clock: clock, watcher: watcher, hub: hub,
                                   endpoints: RequestRouterTests.FakeEndpoints(), version: "test")
        }

        func connection(_ role: PeerRole) -> Connection {
            Connection(channel: EmbeddedChannel(), uid: 1000, role: role, hub: hub, sender: DescriptorSender(logger: Logger(label: "router-fakes")))
        }

        /// The reply to `line` from a peer in `role`, as a JSON object.
        func call(_ line: String, as role: PeerRole = .admin) async throws -> [String: Any] {
            let reply = try #require(await router.handle(Array(line.utf8), connection: connection(role)))
            return try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any])
        }

        var asked: [String] { changes.asked.withLock { $0 } }
    }

    static func code(_ reply: [String: Any]) -> String? { (reply["error"] as? [String: Any])?["code"] as? String }

    @Test("a selection edit reaches the engine typed: the photos and albums as named, who asked, its end from the clock")
    func selectionTyped() async throws {
        let fixture = try Fixture()
        let reply = try await fixture.call(#"{"id":1,"method":"select","params":{"app":"org.example.Viewer","assets":["a.jpg"],"albums":["Trips/2025"],"forSeconds":60}}"#)
        #expect(reply["error"] == nil, "\(reply)")
        #expect((reply["result"] as? [String: Any])?["albums"] as? [String] == ["Trips/2025"])
        #expect(fixture.asked == ["select org.example.Viewer [\"a.jpg\"] [\"Trips/2025\"] by admin until 1800000060"])
        _ = try await fixture.call(#"{"id":2,"method":"deselect","params":{"app":"org.example.Viewer","albums":["/photos/Trips"]}}"#)
        #expect(fixture.asked.last == "deselect org.example.Viewer [] [\"Trips\"] by admin until -", "a path inside the library is made relative")
    }

    @Test("what the router refuses never reaches the engine: a deselection for a while, a path outside the library, a bad ID, an app asking an admin's change")
    func refusedBeforeTheEngine() async throws {
        let fixture = try Fixture()
        let timed = try await fixture.call(#"{"id":1,"method":"deselect","params":{"app":"org.example.Viewer","assets":["a.jpg"],"forSeconds":60}}"#)
        #expect(Self.code(timed) == "invalidParameter")
        let outside = try await fixture.call(#"{"id":2,"method":"select","params":{"app":"org.example.Viewer","albums":["/etc"]}}"#)
        #expect(Self.code(outside) != nil, "\(outside)")
        let badID = try await fixture.call(#"{"id":3,"method":"select","params":{"app":"not an app id","assets":["a.jpg"]}}"#)
        #expect(Self.code(badID) != nil, "\(badID)")
        let status = try await fixture.call(#"{"id":4,"method":"authorize","params":{"app":"org.example.Viewer","status":"maybe"}}"#)
        #expect(Self.code(status) == "invalidStatus")
        let asApp = try await fixture.call(#"{"id":5,"method":"app.add","params":{"app":"org.example.Other","uid":1}}"#, as: .app([Self.viewer]))
        #expect(Self.code(asApp) == "adminOnly")
        let noNotification = try await fixture.call(#"{"id":6,"method":"pick","params":{"notify":false}}"#, as: .app([Self.viewer]))
        #expect(Self.code(noNotification) == "invalidParameter", "only the owner may ask for a pick without a notification")
        #expect(fixture.asked.isEmpty, "\(fixture.asked)")
    }

    @Test("the engine's refusal is the reply, with its code, and the router goes on")
    func engineRefusal() async throws {
        let fixture = try Fixture(failure: .unknownApp(Self.viewer))
        let refused = try await fixture.call(#"{"id":7,"method":"authorize","params":{"app":"org.example.Viewer","status":"limited","forSeconds":30}}"#)
        #expect(Self.code(refused) == "unknownApp")
        #expect(refused["id"] as? Int == 7)
        #expect(fixture.asked == ["authorize org.example.Viewer readWrite limited by admin until 1800000030"])
        let status = try await fixture.call(#"{"id":8,"method":"authorizationStatus","params":{"app":"org.example.Viewer"}}"#)
        #expect((status["result"] as? [String: Any])?["readWrite"] as? String == "limited", "a read goes to the store, not the engine")
    }

    @Test("a rescan is the engine's, and the watcher is asked to rewatch within it")
    func rescan() async throws {
        let fixture = try Fixture()
        let reply = try await fixture.call(#"{"id":1,"method":"rescan"}"#)
        #expect(reply["error"] == nil, "\(reply)")
        #expect(fixture.asked == ["rescan"])
        #expect(fixture.watcher.rewatches.withLock { $0 } == 1)
    }

    @Test("a connection that leaves withdraws its picks only when it waits for one")
    func leaving() async throws {
        let fixture = try Fixture()
        let idle = fixture.connection(.app([Self.viewer]))
        await fixture.router.left(idle)
        #expect(fixture.asked.isEmpty)
        let picking = fixture.connection(.app([Self.viewer]))
        fixture.requests.picks.register(9, PickWaiter(connection: ObjectIdentifier(picking), peerUID: 1000, isOpen: { true },
                                                     deliver: { _, _ in }))
        #expect(fixture.router.awaitsPerson(picking))
        await fixture.router.left(picking)
        #expect(fixture.asked == ["withdrawPicks"])
    }
}
