import PhotoLibCore

/// Where the engine's published events go: the subscriptions' hub in the
/// daemon, a recorder in tests of the engine.
protocol EventPublishing: Sendable {
    /// Hands events to whoever follows their apps; never blocks.
    func publish(_ events: [PublishedEvent])
}

extension SubscriptionHub: EventPublishing {}
