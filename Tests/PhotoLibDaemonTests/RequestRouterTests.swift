import Foundation
import Glibc
import Logging
import NIOEmbedded
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibSystem
import Synchronization
import Testing

/// The router in process: a request line in, a reply line out, for an admin and for an app, on the
/// engine of `TemporaryEngine`; every failure a reply with a code, never a stopped daemon.
@Suite("The request router")
struct RequestRouterTests {
    static let viewer = AppID("org.example.Viewer")!

    struct Fixture {
        let engine: TemporaryEngine
        let router: RequestRouter
        let hub = SubscriptionHub()
        let watcher: FakeWatcher
        let endpoints = FakeEndpoints()

        init() async throws {
            engine = try await TemporaryEngine()
            watcher = FakeWatcher(queue: engine.queue)
            router = RequestRouter(engine: engine.engine, watcher: watcher, hub: hub, endpoints: endpoints, version: "test")
        }

        /// The reply to `line` from a peer in `role`, as a JSON object.
        func call(_ line: String, as role: PeerRole, uid: UInt32 = getuid()) async throws -> [String: Any] {
            let connection = Connection(channel: EmbeddedChannel(), uid: uid, role: role, hub: hub, sender: DescriptorSender(logger: Logger(label: "x")))
            let reply = try #require(await router.handle(Array(line.utf8), connection: connection))
            return try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any])
        }
    }

    /// The watcher, faked: counts the rescans' rewatches, and says the watches are ready at once, as the
    /// watcher's thread does once it has rebuilt them (the engine's run then rescans).
    final class FakeWatcher: LibraryRewatching {
        let queue: EventQueue
        let rewatches = Mutex(0)
        init(queue: EventQueue) { self.queue = queue }
        func requestRewatch() {
            rewatches.withLock { $0 += 1 }
            queue.push(.watchesReady(failedDirectories: 0))
        }
    }

    /// The apps' endpoints, faked: which apps have one.
    final class FakeEndpoints: AppEndpoints {
        let bound = Mutex<Set<AppID>>([])
        func path(of app: AppRecord) -> String { "/run/fake-endpoints/\(app.id)" }
        func ensure(_ app: AppRecord) async { _ = bound.withLock { $0.insert(app.id) } }
        func remove(_ id: AppID) async { _ = bound.withLock { $0.remove(id) } }
        func sync(_ apps: [AppRecord]) async { bound.withLock { $0 = Set(apps.map(\.id)) } }
    }

    static func code(_ reply: [String: Any]) -> String? { (reply["error"] as? [String: Any])?["code"] as? String }

    @Test("what is not a request, a method that does not exist, and an admin method asked by an app are each an error reply with its code")
    func refusals() async throws {
        let fixture = try await Fixture()
        #expect(Self.code(try await fixture.call("not json", as: .admin)) == "malformedRequest")
        #expect(Self.code(try await fixture.call(#"{"id":1,"method":"nope"}"#, as: .admin)) == "unknownMethod")
        let asApp = try await fixture.call(#"{"id":2,"method":"apps"}"#, as: .app([Self.viewer]))
        #expect(Self.code(asApp) == "adminOnly")
        #expect(asApp["id"] as? Int == 2, "the reply names the request it answers")
        let other = try await fixture.call(#"{"id":3,"method":"authorizationStatus","params":{"app":"org.example.Other"}}"#,
                                           as: .app([Self.viewer]))
        #expect(Self.code(other) != nil, "an app asks only of itself")
    }

    @Test("an admin registers and limits an app; the app then reads its own status")
    func adminThenApp() async throws {
        let fixture = try await Fixture()
        let added = try await fixture.call(#"{"id":1,"method":"app.add","params":{"app":"org.example.Viewer","uid":\#(getuid()),"purpose":"Shows photos"}}"#,
                                           as: .admin)
        #expect(added["error"] == nil, "\(added)")
        let limited = try await fixture.call(#"{"id":2,"method":"authorize","params":{"app":"org.example.Viewer","status":"limited"}}"#, as: .admin)
        #expect(limited["error"] == nil, "\(limited)")
        let status = try await fixture.call(#"{"id":3,"method":"authorizationStatus"}"#, as: .app([Self.viewer]))
        let result = try #require(status["result"] as? [String: Any], "\(status)")
        #expect(result["readWrite"] as? String == "limited")
        #expect(fixture.engine.audit.callsInTransactions == [])
    }

    @Test("the router on fakes of the watcher and the endpoints: an app added gets its endpoint, removed loses it, a rescan rewatches; names are parsed before the engine")
    func faces() async throws {
        let fixture = try await Fixture()
        let added = try await fixture.call(#"{"id":1,"method":"app.add","params":{"app":"org.example.Viewer","uid":4242}}"#, as: .admin)
        #expect((added["result"] as? [String: Any])?["endpoint"] as? String == "/run/fake-endpoints/org.example.Viewer", "\(added)")
        #expect(fixture.endpoints.bound.withLock { $0 } == [Self.viewer])
        let engine = fixture.engine.engine
        let running = Task { await engine.run() }
        let rescan = try await fixture.call(#"{"id":2,"method":"rescan"}"#, as: .admin)
        fixture.engine.queue.finish()
        await running.value
        #expect(rescan["error"] == nil, "\(rescan)")
        #expect(fixture.watcher.rewatches.withLock { $0 } == 1)
        let outside = try await fixture.call(#"{"id":3,"method":"select","params":{"app":"org.example.Viewer","albums":["/etc"]}}"#, as: .admin)
        #expect(Self.code(outside) == "unknownAlbum", "\(outside)")
        let removed = try await fixture.call(#"{"id":4,"method":"app.remove","params":{"app":"org.example.Viewer"}}"#, as: .admin)
        #expect(removed["error"] == nil, "\(removed)")
        #expect(fixture.endpoints.bound.withLock { $0 }.isEmpty)
    }
}
