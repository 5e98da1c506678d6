/// Every method name the daemon answers, and who may call it.
public enum Method: String, CaseIterable, Sendable {
    // Admin (the daemon's owner or root)
    case status
    case assets
    case apps
    case addApp = "app.add"
    case removeApp = "app.remove"
    case authorize
    case select
    case deselect
    case selection

    /// True for methods only the library's owner (or root) may call.
    ///
    /// Every method so far manages apps; the app-scoped ones (authorization
    /// status, list, subscribe) are the next protocol step and answer `false`.
    public var isAdminOnly: Bool { true }
}
