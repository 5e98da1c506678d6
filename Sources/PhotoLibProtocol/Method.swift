/// Every method name the daemon answers, and who may call it.
public enum Method: String, CaseIterable, Sendable {
    // Admin (the daemon's owner or root)
    case status
    case assets
    case albums
    case timeline
    case apps
    case installedApps = "apps.installed"
    case addApp = "app.add"
    case removeApp = "app.remove"
    case setApp = "app.set"
    case authorize
    case select
    case deselect
    case selection
    case rescan
    case requests
    case answer
    case report

    // An app's own view (an admin may name any app)
    case authorizationStatus
    case list
    case subscribe
    case unsubscribe
    case requestAuthorization
    case requestReview
    case pick

    /// True for methods whose work may take seconds (a view of a whole large library, a big
    /// selection, a rescan): their connection hears `progress` events before the reply.
    public var mayTakeLong: Bool {
        switch self {
        case .authorize, .select, .deselect, .answer, .rescan, .setApp, .removeApp: true
        default: false
        }
    }

    /// True for methods only the library's owner (or root) may call.
    public var isAdminOnly: Bool {
        switch self {
        case .authorizationStatus, .list, .subscribe, .unsubscribe, .requestAuthorization, .requestReview, .pick: false
        default: true
        }
    }
}
