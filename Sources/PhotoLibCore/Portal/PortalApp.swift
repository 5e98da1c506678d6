/// Which photolibd app a file-chooser call is made for.
///
/// A sandboxed app is named by its Flatpak ID, which is a valid photolibd
/// app ID. An unsandboxed app has no ID the portal can vouch for (the
/// frontend passes an empty one): all such apps share one app, `hostApp`,
/// so their picks are still in the access report, together.
public enum PortalApp {
    /// The app unsandboxed callers are picked for.
    public static let hostApp = AppID("desktop.unsandboxed")!

    /// The app a call is for, or nil when the ID the frontend passed cannot name one.
    public static func app(forPortalID id: String) -> AppID? {
        id.isEmpty ? hostApp : AppID(id)
    }

    /// The purpose recorded for an app first seen through the file chooser (the person's page shows it).
    public static func purpose(for app: AppID) -> String {
        app == hostApp ? "Unsandboxed desktop apps, asking through the file chooser."
            : "Asked for photos through the file chooser."
    }
}
