/// Where Flatpak apps' Pictures folders are kept on the host, and what each override must
/// persist for Flatpak to show one where the app looks for its pictures.
///
/// `pictures` is the person's Pictures folder relative to the home (`UserDirectories`):
/// Flatpak binds `~/.var/app/APP/<pictures>` at `~/<pictures>` in the sandbox, which is where
/// `xdg-user-dir PICTURES` sends the app. Nil when that folder is not inside the home.
public struct FlatpakPicturesFolder: Sendable, Equatable {
    public var home: String
    public var pictures: String?

    public init(home: String, pictures: String?) {
        self.home = home
        self.pictures = pictures
    }

    /// The components under the home: `.var/app/ID/<pictures>`, each opened without following a link.
    public func components(of app: AppID) -> [String] {
        [".var", "app", app.rawValue] + (pictures ?? "Pictures").split(separator: "/").map(String.init)
    }

    public func path(of app: AppID) -> String {
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
