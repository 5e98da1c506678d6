import PhotoLibCore

/// What a connected peer may do, decided once from its kernel-reported uid (SPEC §4).
enum PeerRole: Sendable, Equatable {
    /// The daemon's own uid, or root: may manage every app.
    case admin
    /// A uid registered for these apps: sees its own view only.
    case app([AppID])
}
