/// The `filesystems` a Flatpak app is granted once its manifest and the overrides
/// are merged, as Flatpak merges them: layer by layer, a later `!name` taking away
/// what an earlier layer gave, and a later grant giving it back.
///
/// Entries are Flatpak's names (`home`, `xdg-pictures/Trips`, `~/Pictures`,
/// `/srv/photos`) without their `:ro`/`:rw`/`:create` suffix, which says how, not what.
public struct FlatpakFilesystems: Sendable, Equatable {
    /// Granted names, each with its suffix ("ro", "rw", "create") or "" for none.
    public private(set) var granted: [String: String] = [:]

    public init() {}

    /// Folds layers in order: the manifest's `[Context]`, then the system override, then the user's.
    public init(layers: [[String]]) {
        for layer in layers { apply(layer) }
    }

    public mutating func apply(_ entries: [String]) {
        for entry in entries {
            if entry.hasPrefix("!") {
                granted[Self.name(of: String(entry.dropFirst())).name] = nil
            } else {
                let (name, mode) = Self.name(of: entry)
                granted[name] = mode
            }
        }
    }

    /// A filesystem entry's name and its suffix.
    public static func name(of entry: String) -> (name: String, mode: String) {
        for suffix in [":ro", ":rw", ":create"] where entry.hasSuffix(suffix) {
            return (normalized(String(entry.dropLast(suffix.count))), String(suffix.dropFirst()))
        }
        return (normalized(entry), "")
    }

    /// `~/Pictures/` and `~/Pictures` are one place to Flatpak; so are `xdg-pictures/` and `xdg-pictures`.
    private static func normalized(_ name: String) -> String {
        var name = name
        while name.count > 1, name.hasSuffix("/") { name.removeLast() }
        return name
    }

    /// The modes (`ro`, `rw`, `create`, or "") the given names are granted with.
    public func modes(of names: [String]) -> [String] {
        names.compactMap { granted[$0] }
    }

    /// How the granted names reach the Pictures folder (`pictures`, relative to `home`, such as "Pictures").
    public func reach(pictures: String, home: String) -> PicturesReach {
        var reach = PicturesReach(through: [], broad: [])
        for name in granted.keys.sorted() {
            switch Self.relation(of: name, pictures: pictures, home: home) {
            case .none: break
            case .picturesOrInside: reach.through.append(name)
            case .holdsPictures: reach.through.append(name); reach.broad.append(name)
            }
        }
        return reach
    }

    enum Relation { case none, picturesOrInside, holdsPictures }

    static func relation(of name: String, pictures: String, home: String) -> Relation {
        switch name {
        case "host", "home": return .holdsPictures
        case "xdg-pictures": return .picturesOrInside
        default: break
        }
        if name.hasPrefix("xdg-pictures/") { return .picturesOrInside }
        let absolute: String
        if name == "~" {
            absolute = home
        } else if name.hasPrefix("~/") {
            absolute = home + "/" + name.dropFirst(2)
        } else if name.hasPrefix("/") {
            absolute = name
        } else {
            return .none  // xdg-download, xdg-run/…, host-os: never the Pictures folder
        }
        let target = home + "/" + pictures
        if absolute == target || absolute.hasPrefix(target + "/") { return .picturesOrInside }
        if absolute == "/" || target.hasPrefix(absolute + "/") { return .holdsPictures }
        return .none
    }
}

/// How a Flatpak app reaches the Pictures folder today, in the words the page and `apps` use.
public struct PicturesReach: Sendable, Equatable, Codable {
    /// The granted names that reach it (`home`, `xdg-pictures`, `xdg-pictures/Trips`…), sorted.
    public var through: [String]
    /// Those of them that hold far more than photos (`home`, `host`, `~`, `/home`): limiting
    /// the app means taking them away, which the person must confirm.
    public var broad: [String]

    public init(through: [String], broad: [String]) {
        self.through = through
        self.broad = broad
    }

    /// Whether it reaches the Pictures folder at all.
    public var reaches: Bool { !through.isEmpty }

    /// One sentence for a person: what the app can reach of their photos today.
    public var sentence: String {
        guard reaches else { return "Cannot reach your photos." }
        if through.contains("host") { return "Sees all your files, photos included — its Flatpak permission (host)." }
        if through.contains("home") { return "Sees your whole home folder, photos included — its Flatpak permission (home)." }
        return "Sees all your photos — its Flatpak permission (\(through.joined(separator: ", ")))."
    }
}
