import PhotoLibCore
@testable import PhotoLibPage
import PhotoLibProtocol
import Testing

@Suite("The Apps list: registered apps and installed Flatpak apps, by name")
struct AppCardsTests {
    func installed(_ id: String, name: String, through: [String], broad: [String] = [], running: Bool = false, registered: Bool = false,
                   copyBytes: Int64? = nil) -> InstalledAppInfo {
        var app = InstalledFlatpakApp(id: AppID(id)!, installation: .user, entry: DesktopEntry(name: name, icon: id), iconFile: "/x/\(id).png",
                                      reach: PicturesReach(through: through, broad: broad))
        app.copyBytes = copyBytes
        return InstalledAppInfo(app, registered: registered, running: running)
    }

    func registered(_ id: String, readWrite: String, uid: UInt32, flatpak: Bool = false) -> AppInfo {
        AppInfo(app: id, uid: uid, purpose: "", readWrite: readWrite, addOnly: "notDetermined", view: "/v", selectedAssets: 2, selectedAlbums: 0,
                location: "none", flatpak: flatpak ? true : nil)
    }

    @Test("installed apps that reach Pictures are listed unregistered with their reach; apps that cannot are not; full access first, then by name")
    func merged() {
        let cards = AppCards.make(
            registered: [registered("org.example.Viewer", readWrite: "limited", uid: 4300), registered("org.gnome.Shotwell", readWrite: "limited", uid: 1000, flatpak: true)],
            installed: [installed("org.gnome.Shotwell", name: "Shotwell", through: ["xdg-pictures"], running: true, registered: true, copyBytes: 4_200_000),
                        installed("org.gimp.GIMP", name: "GIMP", through: ["home"], broad: ["home"]),
                        installed("org.example.Calc", name: "Calculator", through: [])],
            libraryAssets: 10, ownerUID: 1000)
        #expect(cards.map(\.name) == ["GIMP", "org.example.Viewer", "Shotwell"])
        let gimp = cards[0]
        #expect(!gimp.registered && gimp.readWrite == "authorized" && gimp.icon == "/api/apps/org.gimp.GIMP/icon")
        #expect(gimp.loss == "Limiting GIMP takes away your home folder (home): it keeps Desktop, Documents, Downloads, Music and Videos, and its own data. Go on?")
        #expect(gimp.access == "Sees your whole home folder, photos included — its Flatpak permission (home).")
        #expect(gimp.caveat?.hasPrefix("It reaches your photos through your whole home folder (home)") == true)
        let shotwell = cards[2]
        #expect(shotwell.identity == "org.gnome.Shotwell · Flatpak app" && shotwell.access == "Selected Photos (2)" && shotwell.loss == nil)
        #expect(shotwell.disk == "Its copies of your photos take 4.2 MB of disk: this filesystem cannot share a photo's blocks between files (btrfs and XFS can).")
        #expect(gimp.disk == nil)
        #expect(shotwell.takesEffect == "A change takes effect when Shotwell next starts; it is running now: quit it and start it again.")
        #expect(cards[1].identity == "org.example.Viewer · uid 4300" && cards[1].caveat == nil && cards[1].icon == nil)
        // An app with a .desktop file of its own is shown by it.
        let named = AppCards.make(registered: [registered("org.example.Viewer", readWrite: "limited", uid: 4300)], installed: [],
                                  libraryAssets: 10, ownerUID: 1000, desktop: ["org.example.Viewer": ("Viewer", true)])
        #expect(named.first?.name == "Viewer" && named.first?.icon == "/api/apps/org.example.Viewer/icon")
    }

    @Test("a registered Flatpak app not decided yet still has full access through its own permission; an app running as the owner outside a sandbox is said to read everything")
    func words() {
        let cards = AppCards.make(
            registered: [registered("org.gnome.Shotwell", readWrite: "notDetermined", uid: 1000, flatpak: true), registered("org.example.Mine", readWrite: "limited", uid: 1000)],
            installed: [installed("org.gnome.Shotwell", name: "Shotwell", through: ["xdg-pictures"], registered: true)], libraryAssets: 10, ownerUID: 1000)
        #expect(cards.first?.access == "Full Access — its Flatpak permission" && cards.first?.level == "full")
        #expect(cards.last?.caveat?.hasPrefix("Runs as you: outside a sandbox it can read every photo") == true)
    }

    @Test("an app that reads its view itself says, on a network library, whether its view is served from the server or holds copies, and why; elsewhere nothing")
    func networkLibraryViews() {
        var served = registered("org.example.Viewer", readWrite: "limited", uid: 4300)
        served.entries = AppEntries(form: "fuse")
        var copying = registered("org.example.Other", readWrite: "limited", uid: 4301)
        copying.entries = AppEntries(form: "copies", reason: "/etc/fuse.conf does not set user_allow_other")
        var local = registered("org.example.Local", readWrite: "limited", uid: 4302)
        local.entries = AppEntries(form: "links")
        let cards = AppCards.make(registered: [served, copying, local], installed: [], libraryAssets: 10, ownerUID: 1000)
        let disk = Dictionary(uniqueKeysWithValues: cards.map { ($0.app, $0.disk) })
        #expect(disk["org.example.Viewer"]??.contains("straight from your library's server") == true)
        #expect(disk["org.example.Other"]??.contains("copies") == true && disk["org.example.Other"]??.contains("user_allow_other") == true)
        #expect(disk["org.example.Local"] == .some(nil))
    }
}
