import NIOCore
import PhotoLibCore
import Synchronization

/// Hands every published event to the subscriptions that follow its app.
///
/// Publishing never blocks and never waits for a subscriber: each
/// subscription queues on its own connection, within its own budget.
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
        for event in events {
            let buffer = ByteBuffer(bytes: event.line)  // encoded once, shared by every subscriber
            for subscription in current where subscription.follows(event.app) && (event.token != nil || subscription.isAdmin) {
                subscription.offer(app: event.app, token: event.token, line: buffer)
            }
        }
    }
}
