import PhotoLibCore
import PhotoLibProtocol

/// The Apps list as the page shows it: every registered app, and every installed Flatpak
/// app that reaches the Pictures folder through its own permission, each by the name and
/// icon of its .desktop file where it has one, with what it can reach in a person's words.
///
/// Pure: built from what the daemon answered (`apps`, `apps.installed`, the library's size).
enum AppCards {
    /// An app as the page lists it.
    struct Card: Encodable, Equatable {
        let app: String
        /// What the person knows it by: its .desktop Name, else its ID.
        let name: String
        /// Where the page loads its icon from; nil: none.
        let icon: String?
        /// Small print: the ID, and the uid or "Flatpak app".
        let identity: String
        let purpose: String
        let uid: UInt32
        let access: String
        let level: String
        let readWrite: String
        let addOnly: String
        let location: String
        /// `shared` or `removed`: whether captions and people's names leave with its picks by default.
        let captions: String
        let selectedAssets: Int
        let selectedAlbums: Int
        let readWriteEndsAt: Int64?
        let readWriteReturnsTo: String?
        /// Whether photolibd knows the app yet (an installed Flatpak app may not be): only then
        /// are location and Remove offered; choosing its access registers it.
        let registered: Bool
        let flatpak: Bool
        /// When a change takes effect, for a Flatpak app ("when Hello next starts").
        let takesEffect: String?
        /// What its copies cost in disk, for a Flatpak app on a filesystem that cannot clone.
        let disk: String?
        /// What the app reaches whatever photolibd does, said plainly.
        let caveat: String?
        /// For a Flatpak app whose own permission holds far more than photos (`home`, `host`): what
        /// limiting it takes away, which the person confirms before Selected Photos or None.
        let loss: String?
    }

    /// - Parameter desktop: the name, and whether it has an icon, of each registered app that is not a Flatpak app but has a `.desktop` file.
    static func make(registered apps: [AppInfo], installed: [InstalledAppInfo], libraryAssets: Int, ownerUID: UInt32,
                     desktop: [String: (name: String, hasIcon: Bool)] = [:]) -> [Card] {
        let flatpaks = Dictionary(installed.map { ($0.app, $0) }, uniquingKeysWith: { first, _ in first })
        var cards: [(AccessWording.Level, Card)] = apps.map { app in
            let flatpak = flatpaks[app.app]
            let wording = AccessWording(
                readWrite: AuthorizationStatus(rawValue: app.readWrite) ?? .notDetermined,
                addOnly: AuthorizationStatus(rawValue: app.addOnly) ?? .notDetermined,
                selectedAssets: app.selectedAssets, libraryAssets: libraryAssets)
            let isFlatpak = app.flatpak == true
            var access = wording.words
            var level = wording.level
            // Not decided yet, an installed Flatpak app still reads Pictures through its own permission.
            if isFlatpak, app.readWrite == AuthorizationStatus.notDetermined.rawValue, let flatpak, flatpak.reachesPictures {
                access = "Full Access — its Flatpak permission"
                level = .full
            }
            return (level, Card(
                app: app.app, name: flatpak?.name ?? desktop[app.app]?.name ?? app.app,
                icon: flatpak?.icon != nil || desktop[app.app]?.hasIcon == true ? iconPath(app.app) : nil,
                identity: isFlatpak ? "\(app.app) · Flatpak app" : "\(app.app) · uid \(app.uid)",
                purpose: app.purpose, uid: app.uid, access: access, level: "\(level)",
                readWrite: app.readWrite, addOnly: app.addOnly, location: app.location, captions: app.captions ?? "removed",
                selectedAssets: app.selectedAssets, selectedAlbums: app.selectedAlbums,
                readWriteEndsAt: app.readWriteEndsAt, readWriteReturnsTo: app.readWriteReturnsTo,
                registered: true, flatpak: isFlatpak, takesEffect: flatpak.map(takesEffect),
                disk: isFlatpak ? (app.entries?.form == "fuse" ? InstalledFlatpakApp.mirrorWords : InstalledFlatpakApp.copyWords(flatpak?.copyBytes))
                    : viewWords(app.entries),
                caveat: isFlatpak ? flatpak.flatMap(broadCaveat) : caveat(uid: app.uid, ownerUID: ownerUID),
                loss: flatpak.flatMap(loss)))
        }
        let known = Set(apps.map(\.app))
        for flatpak in installed where !known.contains(flatpak.app) && flatpak.reachesPictures {
            cards.append((.full, Card(
                app: flatpak.app, name: flatpak.name, icon: flatpak.icon == nil ? nil : iconPath(flatpak.app),
                identity: "\(flatpak.app) · Flatpak app", purpose: "", uid: ownerUID,
                access: flatpak.reach, level: "\(AccessWording.Level.full)",
                readWrite: AuthorizationStatus.authorized.rawValue, addOnly: AuthorizationStatus.notDetermined.rawValue,
                location: LocationPolicy.newAppDefault.rawValue, captions: "removed", selectedAssets: 0, selectedAlbums: 0,
                readWriteEndsAt: nil, readWriteReturnsTo: nil, registered: false, flatpak: true,
                takesEffect: takesEffect(flatpak), disk: nil, caveat: broadCaveat(flatpak), loss: loss(flatpak))))
        }
        // Full access first (iOS 17's reminder of who sees everything), then by name.
        return cards.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : ($0.1.name.lowercased(), $0.1.app) < ($1.1.name.lowercased(), $1.1.app) }.map(\.1)
    }

    /// What the view of an app that reads it itself costs, where that is worth saying: a library on a
    /// network filesystem, whose views are served through FUSE or hold copies.
    static func viewWords(_ entries: AppEntries?) -> String? {
        switch entries?.form {
        case "fuse": "Its view shows the photos it may see read-only, straight from your library's server (through FUSE): nothing is copied."
        case "copies": "Its view holds copies of the photos it may see, on this computer's disk: \(entries?.reason ?? "they cannot be served otherwise")."
        default: nil
        }
    }

    static func iconPath(_ app: String) -> String {
        "/api/apps/" + app + "/icon"
    }

    /// Flatpak reads an app's permissions when it starts.
    static func takesEffect(_ app: InstalledAppInfo) -> String {
        app.running ? "A change takes effect when \(app.name) next starts; it is running now: quit it and start it again."
            : "A change takes effect when \(app.name) next starts."
    }

    /// A Flatpak app whose own permission reaches far more than photos.
    static func broadCaveat(_ app: InstalledAppInfo) -> String? {
        guard !app.broad.isEmpty else { return nil }
        return "It reaches your photos through \(app.broad.map { $0 == "home" ? "your whole home folder (home)" : $0 == "host" ? "all your files (host)" : $0 }.joined(separator: " and ")): Selected Photos or None takes that away; it keeps \(PicturesOverride.keptFolderWords)."
    }

    /// The question a person confirms before a broad grant is taken away.
    static func loss(_ app: InstalledAppInfo) -> String? {
        app.broad.isEmpty ? nil : PicturesOverride.loss(appName: app.name, broad: app.broad) + " Go on?"
    }

    /// An app that runs as the person, outside any sandbox, reads their files whatever photolibd does.
    static func caveat(uid: UInt32, ownerUID: UInt32) -> String? {
        uid == ownerUID ? "Runs as you: outside a sandbox it can read every photo whatever you choose here; photolibd limits it only when it runs sandboxed (photolibctl app sandbox)." : nil
    }
}
