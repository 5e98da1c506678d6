/// Who a connecting peer is, from what the kernel says of it: the pure rule
/// of SPEC §4, tested on fakes; the server only gathers the facts.
///
/// - On the **main socket**, the daemon's own uid and root are the admin, a
///   uid registered for apps is those apps, and anyone else is refused. A
///   Flatpak peer is refused whatever its uid: a sandboxed app runs as the
///   owner and would otherwise be the admin. When it cannot be told whether a
///   peer of the daemon's own uid is sandboxed, it is refused too: doubt never
///   makes an admin. (Root is not a uid Flatpak runs apps as, its processes
///   may be out of the daemon's reach, and root can read the library anyway: a
///   root peer not known to be sandboxed is the admin.)
/// - On an app's **endpoint**, the peer is that app and nothing more, whatever
///   its uid; a Flatpak peer must be the Flatpak app of that ID. Where it
///   cannot be told (a peer of another uid, whose root the owner cannot read),
///   the endpoint's permissions, which let in the app's uid alone, decide.
public enum PeerAdmission {
    /// The socket a peer connected to.
    public enum Listener: Sendable, Equatable {
        case main
        case endpoint(AppID)
    }

    /// - Parameters:
    ///   - appsForUID: the apps registered for the peer's uid (main socket only).
    public static func decide(
        listener: Listener, uid: UInt32, daemonUID: UInt32, appsForUID: [AppID], sandbox: SandboxIdentity
    ) -> Result<PeerRole, PhotoLibError> {
        let isOwner = uid == daemonUID || uid == 0
        switch listener {
        case .main:
            if case .flatpak(let appID) = sandbox { return .failure(.sandboxedOnMainSocket(appID: appID)) }
            if isOwner {
                if case .unknown(let reason) = sandbox, uid == daemonUID, uid != 0 {
                    return .failure(.peerUnidentified(uid: uid, reason: reason))
                }
                return .success(.admin)
            }
            return appsForUID.isEmpty ? .failure(.notPermitted(uid: uid)) : .success(.app(appsForUID))
        case .endpoint(let app):
            switch sandbox {
            case .flatpak(let appID) where appID != app.rawValue:
                return .failure(.endpointOfAnotherApp(endpoint: app, flatpakApp: appID))
            case .unknown(let reason) where uid == daemonUID:
                return .failure(.peerUnidentified(uid: uid, reason: reason))
            case .flatpak, .host, .unknown:
                return .success(.app([app]))
            }
        }
    }
}
