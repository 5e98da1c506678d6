import NIOCore
import PhotoLibCore
import Synchronization

/// One admitted client: its channel, its kernel-given identity, and its subscription.
final class Connection: Sendable {
    let channel: any Channel
    let uid: UInt32
    let role: PeerRole
    /// Passes files to the peer (a pick), in order with the channel's writes.
    let sender: DescriptorSender
    private let hub: SubscriptionHub
    private let subscription = Mutex<Subscription?>(nil)
    private let open = Atomic<Bool>(true)

    init(channel: any Channel, uid: UInt32, role: PeerRole, hub: SubscriptionHub, sender: DescriptorSender) {
        self.channel = channel
        self.uid = uid
        self.role = role
        self.hub = hub
        self.sender = sender
    }

    /// False once the peer has gone.
    var isOpen: Bool { open.load(ordering: .acquiring) }

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
        open.store(false, ordering: .releasing)
        replaceSubscription(nil)
    }
}
