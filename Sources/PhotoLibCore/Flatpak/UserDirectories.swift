/// The person's Pictures folder as `xdg-user-dirs` names it (`~/.config/user-dirs.dirs`),
/// which is what Flatpak's `xdg-pictures` and an app's `xdg-user-dir PICTURES` both mean.
///
/// The file is shell assignments; xdg-user-dirs writes only `XDG_NAME_DIR="$HOME/…"` or an
/// absolute path, and that is all that is read here.
public enum UserDirectories {
    /// The Pictures folder relative to `home` ("Pictures", "Bilder", "Media/Photos"), from the
    /// file's text; "Pictures" when the file or the line is missing, as GLib falls back.
    /// Nil when it is set to the home itself or outside it: no persisted folder can stand for it.
    public static func pictures(in text: String?, home: String) -> String? {
        var value: String?
        for line in (text ?? "").split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            var raw = trimmed.dropFirst("XDG_PICTURES_DIR=".count)
            if raw.hasPrefix("\""), let end = raw.dropFirst().firstIndex(of: "\"") { raw = raw[raw.index(after: raw.startIndex)..<end] }
            value = String(raw)
        }
        guard let value else { return "Pictures" }
        var relative: Substring
        if value.hasPrefix("$HOME/") {
            relative = value.dropFirst("$HOME/".count)
        } else if value.hasPrefix(home + "/") {
            relative = value.dropFirst(home.count + 1)
        } else {
            return nil
        }
        while relative.hasSuffix("/") { relative = relative.dropLast() }
        let parts = relative.split(separator: "/")
        guard !parts.isEmpty, !parts.contains(".."), !parts.contains(".") else { return nil }
        return parts.joined(separator: "/")
    }
}
