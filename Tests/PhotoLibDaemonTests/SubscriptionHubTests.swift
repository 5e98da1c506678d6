import NIOCore
import NIOEmbedded
import PhotoLibCore
@testable import PhotoLibDaemon
import Testing

/// The hub on embedded channels: who gets which event, in which order, with one task per event loop.
@Suite("The subscriptions' hub")
struct SubscriptionHubTests {
    static let viewer = AppID("org.example.Viewer")!
    static let camera = AppID("org.example.Camera")!

    /// A live subscription on its own embedded channel and event loop.
    func subscribe(_ apps: Set<AppID>?, admin: Bool = false, loop: EmbeddedEventLoop) throws -> (Subscription, EmbeddedChannel) {
        let channel = EmbeddedChannel(loop: loop)
        let subscription = Subscription(channel: channel, apps: apps, isAdmin: admin)
        subscription.activate(reply: Array("subscribed\n".utf8), delta: [], after: [:])
        loop.run()
        _ = try channel.readOutbound(as: ByteBuffer.self)  // the reply
        return (subscription, channel)
    }

    func lines(_ channel: EmbeddedChannel) throws -> [String] {
        var out: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { out.append(String(buffer: buffer)) }
        return out
    }

    static func event(_ app: AppID, _ token: Int64?, _ text: String) -> PublishedEvent {
        PublishedEvent(app: app, token: token, line: Array((text + "\n").utf8))
    }

    @Test("each subscriber gets its apps' events in order; admin events only admins; nothing runs until its loop does")
    func routing() throws {
        let first = EmbeddedEventLoop(), second = EmbeddedEventLoop()
        let hub = SubscriptionHub()
        let (viewer, viewerChannel) = try subscribe([Self.viewer], loop: first)
        let (camera, cameraChannel) = try subscribe([Self.camera], loop: first)
        let (admin, adminChannel) = try subscribe(nil, admin: true, loop: second)
        for subscription in [viewer, camera, admin] { hub.add(subscription) }

        hub.publish([Self.event(Self.viewer, 1, "v1"), Self.event(Self.camera, 1, "c1"), Self.event(Self.viewer, 2, "v2"),
                     Self.event(Self.viewer, nil, "request")])
        #expect(try lines(viewerChannel).isEmpty, "handed to the loop, not written from the publishing thread")
        first.run()
        second.run()
        #expect(try lines(viewerChannel) == ["v1\n", "v2\n"])
        #expect(try lines(cameraChannel) == ["c1\n"])
        #expect(try lines(adminChannel) == ["v1\n", "c1\n", "v2\n", "request\n"])

        hub.remove(camera)
        hub.publish([Self.event(Self.camera, 2, "c2")])
        first.run()
        second.run()
        #expect(try lines(cameraChannel).isEmpty, "a removed subscription hears nothing more")
        #expect(try lines(adminChannel) == ["c2\n"])
    }
}
