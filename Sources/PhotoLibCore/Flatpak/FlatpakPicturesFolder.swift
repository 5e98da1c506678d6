/// Where a Flatpak app's Pictures folder is kept on the host, and what its override
/// must say for Flatpak to show it at `~/Pictures` in the sandbox.
public enum FlatpakPicturesFolder {
    /// The Pictures folder relative to the home, as `--persist` takes it.
    public static let persisted = "Pictures"

    /// The components under the home: `.var/app/ID/Pictures`, each opened without following a link.
    public static func components(of app: AppID) -> [String] {
        [".var", "app", app.rawValue, persisted]
    }

    public static func path(of app: AppID, home: String) -> String {
        ([home] + components(of: app)).joined(separator: "/")
    }

    /// Whether the override that photolibd keeps should be in place for a read-write status:
    /// Selected Photos and None make the app's Pictures its view; Full Access leaves the app's
    /// own permission alone, and so does an app the person has not decided for yet.
    public static func limits(_ status: AuthorizationStatus) -> Bool {
        switch status {
        case .limited, .denied, .restricted: return true
        case .authorized, .notDetermined: return false
        }
    }
}
