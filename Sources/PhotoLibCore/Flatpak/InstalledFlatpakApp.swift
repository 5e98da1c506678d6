/// An installed Flatpak app as photolibd shows it to a person: by name and icon, with
/// what it can reach of their photos today (SPEC §11).
public struct InstalledFlatpakApp: Sendable, Equatable {
    public enum Installation: String, Sendable, Equatable, Codable {
        case user, system
    }

    public var id: AppID
    public var installation: Installation
    /// From its exported .desktop file; nil when it exports none.
    public var entry: DesktopEntry?
    /// An icon file of its export (PNG or SVG), the largest up to 128 pixels.
    public var iconFile: String?
    /// How its permissions reach the Pictures folder, the person's override lines included and photolibd's not.
    public var reach: PicturesReach
    /// For an app photolibd limits: why it would not find its view at its next start (`PicturesOverride.undone`).
    public var undone: String?
    /// For an app photolibd limits: it runs now with the permissions it had before its override last changed.
    public var runsWithOldPermissions = false
    /// For an app photolibd limits, where its Pictures folder's filesystem cannot clone: the bytes its copies take.
    public var copyBytes: Int64?

    /// What the copies cost, in a person's words; nil when they cost nothing (clones, or none yet) or are not known.
    /// What the page says of a Pictures folder served through FUSE (`PicturesFolderForm.mirror`).
    public static let mirrorWords = "Its Pictures folder shows the photos you chose read-only, straight from your library (through FUSE): nothing is copied."

    public static func copyWords(_ bytes: Int64?) -> String? {
        guard let bytes, bytes > 0 else { return nil }
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let amount = unit == 0 ? "\(bytes)" : (value < 10 ? String(Int(value * 10) / 10) + "." + String(Int(value * 10) % 10) : String(Int(value)))
        return "Its copies of your photos take \(amount) \(units[unit]) of disk: this filesystem cannot share a photo's blocks between files (btrfs and XFS can)."
    }

    public init(id: AppID, installation: Installation, entry: DesktopEntry?, iconFile: String?, reach: PicturesReach) {
        self.id = id
        self.installation = installation
        self.entry = entry
        self.iconFile = iconFile
        self.reach = reach
    }

    /// The name to show: the .desktop Name, else the ID's last part.
    public var displayName: String {
        entry?.name ?? String(id.rawValue.split(separator: ".").last ?? Substring(id.rawValue))
    }

    /// The icon sizes looked for in an app's export, best first: what a list row shows well.
    public static let iconCandidates = ["128x128", "64x64", "256x256", "96x96", "48x48", "scalable"]
}
