/// What a connected peer may do, decided once when it connects (SPEC §4), by `PeerAdmission`.
public enum PeerRole: Sendable, Equatable {
    /// The daemon's own uid, or root, on the main socket, outside any sandbox: may manage every app.
    case admin
    /// These apps (by uid on the main socket, or the one app of an endpoint): sees its own view only.
    case app([AppID])
}
