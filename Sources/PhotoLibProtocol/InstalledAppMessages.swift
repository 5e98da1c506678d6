public import PhotoLibCore

/// `apps.installed`: the installed Flatpak apps (user and system installations), each by
/// its name and icon, with what it can reach of the Pictures folder today (SPEC §11).
public struct InstalledAppsResult: Codable, Sendable, Equatable {
    public var apps: [InstalledAppInfo]
    public init(apps: [InstalledAppInfo]) { self.apps = apps }
}

/// One installed Flatpak app.
public struct InstalledAppInfo: Codable, Sendable, Equatable {
    /// Its Flatpak ID, which `authorize` and `app add --flatpak` take.
    public var app: String
    /// The Name of its .desktop file (or the ID's last part when it exports none).
    public var name: String
    /// An icon file of its export (PNG or SVG), readable by the owner; nil when it has none.
    public var icon: String?
    /// `user` or `system`.
    public var installation: String
    /// Whether its permissions reach the Pictures folder, and through which grants.
    public var reachesPictures: Bool
    public var through: [String]
    /// The grants among them that reach far more than photos (`home`, `host`).
    public var broad: [String]
    /// What it can reach, in a person's words.
    public var reach: String
    /// Whether it is a registered app (then `apps` has its status).
    public var registered: Bool
    /// Whether an instance runs now: a change of its access takes effect at its next start.
    public var running: Bool
    /// For an app photolibd limits: why it would not find its view at its next start
    /// (the person's own override undid photolibd's lines); nil when it would.
    public var undone: String?
    /// For an app photolibd limits: it runs now with the permissions it had before its override last changed.
    public var runsWithOldPermissions: Bool?
    /// For an app photolibd limits, where its Pictures folder's filesystem cannot clone: the bytes its copies take.
    public var copyBytes: Int64?

    public init(_ app: InstalledFlatpakApp, registered: Bool, running: Bool) {
        self.app = app.id.rawValue
        name = app.displayName
        icon = app.iconFile
        installation = app.installation.rawValue
        reachesPictures = app.reach.reaches
        through = app.reach.through
        broad = app.reach.broad
        reach = app.reach.sentence
        self.registered = registered
        self.running = running
        undone = app.undone
        runsWithOldPermissions = app.runsWithOldPermissions ? true : nil
        copyBytes = app.copyBytes
    }
}
