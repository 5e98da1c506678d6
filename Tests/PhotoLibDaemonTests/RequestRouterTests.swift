import Foundation
import Glibc
import Logging
import NIOEmbedded
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibSystem
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

        init() async throws {
            engine = try await TemporaryEngine()
            let logger = Logger(label: "router-test")
            let board = StatusBoard()
            router = RequestRouter(
                engine: engine.engine,
                watcher: try LibraryWatcher(libraryPath: engine.library, helperExecutable: "/nonexistent/photolibd-inotify (never started here)",
                                            queue: EventQueue(), board: board, logger: logger),
                hub: hub,
                endpoints: EndpointSet(directory: engine.root + "/endpoints", ownerUID: getuid(), logger: logger, units: EndpointUnits(logger: logger)),
                version: "test")
        }

        /// The reply to `line` from a peer in `role`, as a JSON object.
        func call(_ line: String, as role: PeerRole, uid: UInt32 = getuid()) async throws -> [String: Any] {
            let connection = Connection(channel: EmbeddedChannel(), uid: uid, role: role, hub: hub, sender: DescriptorSender(logger: Logger(label: "x")))
            let reply = try #require(await router.handle(Array(line.utf8), connection: connection))
            return try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any])
        }
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
}
