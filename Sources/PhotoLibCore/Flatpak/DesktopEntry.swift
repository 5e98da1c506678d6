/// What a person knows an app by: the `Name` and `Icon` of its `.desktop` file
/// (`[Desktop Entry]`), as menus and GNOME Software show it.
public struct DesktopEntry: Sendable, Equatable {
    public var name: String
    /// The `Icon` key: a theme icon name (a Flatpak app's is its ID) or an absolute path.
    public var icon: String?

    public init(name: String, icon: String?) {
        self.name = name
        self.icon = icon
    }

    /// Reads the entry; nil without a `Name`, or for an entry that asks to be hidden (`NoDisplay`, `Hidden`).
    public init?(_ file: KeyFileText) {
        let group = "Desktop Entry"
        guard let name = file.value("Name", in: group), !name.isEmpty,
              file.value("Hidden", in: group) != "true" else { return nil }
        self.name = name
        icon = file.value("Icon", in: group).flatMap { $0.isEmpty ? nil : $0 }
    }
}
