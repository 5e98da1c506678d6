public import PhotoLibCore

/// Finds an app's `.desktop` file and icon as menus do: `<ID>.desktop` in the
/// `applications` folder of `$XDG_DATA_HOME` (`~/.local/share`), then of each of
/// `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share`); its `Icon` as an absolute path,
/// or by name in the hicolor theme of the same folders, or in `/usr/share/pixmaps`.
/// Reads only; a file that cannot be read counts as none (a menu shows nothing for it either).
public enum DesktopEntries {
    /// The data folders, most personal first.
    public static func dataDirectories(home: String) -> [String] {
        let personal = ProcessIdentity.environment("XDG_DATA_HOME") ?? home + "/.local/share"
        let system = (ProcessIdentity.environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        return [personal] + system
    }

    /// The app's entry and icon file; nil when no folder holds `<ID>.desktop` with a name.
    public static func lookUp(_ app: AppID, home: String) -> (entry: DesktopEntry, iconFile: String?)? {
        let directories = dataDirectories(home: home)
        for directory in directories {
            guard let bytes = (try? PrivateFiles.read(directory + "/applications/" + app.rawValue + ".desktop")).flatMap({ $0 }),
                  let entry = DesktopEntry(KeyFileText(String(decoding: bytes, as: UTF8.self))) else { continue }
            return (entry, entry.icon.flatMap { iconFile(named: $0, in: directories) })
        }
        return nil
    }

    static func iconFile(named icon: String, in directories: [String]) -> String? {
        if icon.hasPrefix("/") { return PathInspection.status(icon)?.kind == .regular ? icon : nil }
        guard !icon.contains("/") else { return nil }
        var candidates: [String] = []
        for directory in directories {
            for size in InstalledFlatpakApp.iconCandidates {
                candidates += ["png", "svg"].map { directory + "/icons/hicolor/" + size + "/apps/" + icon + "." + $0 }
            }
        }
        candidates += ["png", "svg"].map { "/usr/share/pixmaps/" + icon + "." + $0 }
        return candidates.first { PathInspection.status($0)?.kind == .regular }
    }
}
