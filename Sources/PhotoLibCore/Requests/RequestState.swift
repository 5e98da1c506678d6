/// Where a request to the person stands, as `request` events and replies say it.
public enum RequestState: String, Sendable, Codable, CaseIterable {
    /// Asked, not yet answered: the app may be waiting on screen.
    case pending
    /// The person (or `photolibctl authorize`) decided it.
    case answered
    /// Withdrawn: by the app, by `answer … cancel`, or with the app's removal.
    case cancelled
}

/// Who made an edit that an event reports (`by.role`).
public enum ActorRole: String, Sendable, Codable, CaseIterable {
    /// The owner, through photolibctl, the page, or another admin client.
    case admin
    /// The app itself, through its endpoint.
    case app
    /// The daemon, ending a grant at its time.
    case expiry
}
