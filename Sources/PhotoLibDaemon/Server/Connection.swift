import NIOCore
import PhotoLibCore
import Synchronization

/// One admitted client: its channel, its kernel-given identity, and its subscription.
final class Connection: Sendable {
    let channel: any Channel
    let uid: UInt32
    let role: PeerRole
    private let hub: SubscriptionHub
    private let subscription = Mutex<Subscription?>(nil)

    init(channel: any Channel, uid: UInt32, role: PeerRole, hub: SubscriptionHub) {
        self.channel = channel
        self.uid = uid
        self.role = role
        self.hub = hub
    }

    var isSubscribed: Bool { subscription.withLock { $0 != nil } }

    /// Installs (or, with nil, removes) this connection's subscription.
    func replaceSubscription(_ new: Subscription?) {
        let old = subscription.withLock { current in
            let old = current
            current = new
            return old
        }
        if let old { hub.remove(old) }
        if let new { hub.add(new) }
    }

    func closed() {
        replaceSubscription(nil)
    }
}
