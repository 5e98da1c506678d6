public import PhotoLibCore

/// The files Flatpak keeps about an installed app: its manifest's permissions (the
/// `metadata` key file of its current deployment) and the overrides, in the user's
/// installation (`~/.local/share/flatpak`) and the system's (`/var/lib/flatpak`).
///
/// A file that is not there is nil; any other failure is thrown, never taken for "none".
public struct FlatpakFiles: Sendable {
    public var userDirectory: String
    public var systemDirectory: String

    /// The installations as Flatpak finds them: `$FLATPAK_USER_DIR` or `~/.local/share/flatpak`,
    /// `$FLATPAK_SYSTEM_DIR` or `/var/lib/flatpak`.
    public init(home: String) {
        userDirectory = ProcessIdentity.environment("FLATPAK_USER_DIR")
            ?? (ProcessIdentity.environment("XDG_DATA_HOME") ?? home + "/.local/share") + "/flatpak"
        systemDirectory = ProcessIdentity.environment("FLATPAK_SYSTEM_DIR") ?? "/var/lib/flatpak"
    }

    /// The app's manifest permissions: the user installation's deployment first, as `flatpak run` prefers it.
    public func metadata(of app: AppID) throws(SystemCallError) -> KeyFileText? {
        for root in [userDirectory, systemDirectory] {
            if let text = try readText(root + "/app/" + app.rawValue + "/current/active/metadata") { return text }
        }
        return nil
    }

    public func systemOverride(of app: AppID) throws(SystemCallError) -> KeyFileText? {
        try readText(systemDirectory + "/overrides/" + app.rawValue)
    }

    public var userOverridesDirectory: String { userDirectory + "/overrides" }

    public func userOverride(of app: AppID) throws(SystemCallError) -> KeyFileText? {
        try readText(userOverridesDirectory + "/" + app.rawValue)
    }

    /// Replaces the user override in one rename (Flatpak reads it whole or not at all);
    /// a file left with nothing in it is removed, as `flatpak override --reset` leaves none.
    public func writeUserOverride(of app: AppID, _ file: KeyFileText) throws(SystemCallError) {
        let path = userOverridesDirectory + "/" + app.rawValue
        if file.isBlank {
            PrivateFiles.remove(path)
            return
        }
        _ = try ProcessIdentity.makeDirectories(userOverridesDirectory, mode: 0o755)
        try PrivateFiles.write(path, Array(file.text.utf8), mode: 0o644)
    }

    /// The person's Pictures folder relative to `home`, from `$XDG_CONFIG_HOME/user-dirs.dirs`
    /// (`UserDirectories`); an unreadable file counts as none, as GLib takes it.
    public static func picturesFolder(home: String) -> FlatpakPicturesFolder {
        let config = ProcessIdentity.environment("XDG_CONFIG_HOME") ?? home + "/.config"
        let text = (try? PrivateFiles.read(config + "/user-dirs.dirs")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
        return FlatpakPicturesFolder(home: home, pictures: UserDirectories.pictures(in: text, home: home))
    }

    private func readText(_ path: String) throws(SystemCallError) -> KeyFileText? {
        try PrivateFiles.read(path).map { KeyFileText(String(decoding: $0, as: UTF8.self)) }
    }
}
