import NIOCore
import PhotoLibCore
import Synchronization

/// Hands every published event to the subscriptions that follow its app.
///
/// Publishing never blocks and never waits for a subscriber: each
/// subscription queues on its own connection, within its own budget. Each
/// event loop is handed one task per publish, whatever the number of its
/// subscribers: a change to 1,000 subscribers wakes each loop once, not 1,000 times.
final class SubscriptionHub: Sendable {
    private let subscriptions = Mutex<[ObjectIdentifier: Subscription]>([:])

    func add(_ subscription: Subscription) {
        subscriptions.withLock { $0[ObjectIdentifier(subscription)] = subscription }
    }

    func remove(_ subscription: Subscription) {
        subscriptions.withLock { $0[ObjectIdentifier(subscription)] = nil }
    }

    func publish(_ events: [PublishedEvent]) {
        guard !events.isEmpty else { return }
        let current = subscriptions.withLock { Array($0.values) }
        guard !current.isEmpty else { return }
        let lines = events.map { (event: $0, buffer: ByteBuffer(bytes: $0.line)) }  // encoded once, shared by every subscriber
        for group in Dictionary(grouping: current, by: { ObjectIdentifier($0.channel.eventLoop) }).values {
            group[0].channel.eventLoop.execute {
                for (event, buffer) in lines {
                    for subscription in group where subscription.follows(event.app)
                        && (event.token != nil || subscription.isAdmin || event.toEverySubscriber) {
                        subscription.receiveOnLoop(app: event.app, token: event.token, line: buffer)
                    }
                }
            }
        }
    }
}
