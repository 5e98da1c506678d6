/// What a connected peer may do, decided once when it connects (SPEC §4), by `PeerAdmission`.
public enum PeerRole: Sendable, Equatable {
    /// The daemon's own uid, or root, on the main socket, outside any sandbox: may manage every app.
    case admin
    /// These apps (by uid on the main socket, or the one app of an endpoint): sees its own view only.
    case app([AppID])
}

extension PeerRole {
    /// The app a view request is about, from the name the peer gave (if any):
    /// an app may name only its own, or none when it has exactly one; an admin must name one.
    public func target(_ requested: String?) throws(PhotoLibError) -> AppID {
        switch self {
        case .admin:
            guard let requested else { throw .invalidParameter(name: "app", reason: "an admin must name the app") }
            return try AppID.parse(requested)
        case .app(let apps):
            guard let requested else {
                guard apps.count == 1 else { throw .ambiguousApp(apps: apps.map(\.rawValue)) }
                return apps[0]
            }
            let app = try AppID.parse(requested)
            guard apps.contains(app) else { throw .otherAppsView(caller: apps[0], target: app) }
            return app
        }
    }
}
