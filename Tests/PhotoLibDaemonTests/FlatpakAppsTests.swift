import Foundation
import Logging
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibStore
import PhotoLibSystem
import TestSupport
import Testing

/// The owner of installed Flatpak apps on its own: an installation and a home of a temporary directory,
/// a store in memory; no engine, no view.
@Suite("Installed Flatpak apps (their owner)")
struct FlatpakAppsTests {
    static let wide = AppID("org.example.Wide")!
    static let absent = AppID("org.example.Absent")!

    let home: String
    let store: Store
    let apps: FlatpakApps

    init() throws {
        home = try makeTemporaryDirectory("photolibd-flatpak")
        let active = home + "/.local/share/flatpak/app/\(Self.wide)/current/active"
        try FileManager.default.createDirectory(atPath: active, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/Pictures", withIntermediateDirectories: true)
        // An app that reaches the whole home, as many do.
        try Data("[Application]\nname=\(Self.wide)\n\n[Context]\nfilesystems=home;\n".utf8).write(to: URL(fileURLWithPath: active + "/metadata"))
        store = try Store(inMemory: ())
        apps = FlatpakApps(store: store, pictures: FlatpakPicturesFolder(home: home, pictures: "Pictures"), logger: Logger(label: "flatpak-apps-test"))
    }

    func record(_ status: AuthorizationStatus) throws -> AppRecord {
        var generator = SystemRandomNumberGenerator()
        var app = AppRecord(id: Self.wide, uid: getuid(), purpose: "", readWrite: status, addOnly: .notDetermined,
                            viewName: FileName("view-wide")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator))
        app.flatpakPictures = true
        return app
    }

    var overrideText: String? { try? String(contentsOfFile: apps.files.userOverridesDirectory + "/\(Self.wide)", encoding: .utf8) }

    @Test("installed or not, each said as such; an app not installed is refused with where it was looked for")
    func installed() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try apps.isInstalled(Self.wide))
        #expect(try !apps.isInstalled(Self.absent))
        #expect(throws: PhotoLibError.flatpakNotInstalled(Self.absent, installations: [apps.files.userDirectory, apps.files.systemDirectory])) {
            try apps.checkInstalled(Self.absent)
        }
    }

    @Test("an app that reaches the whole home is limited only once the person confirms; its override then holds photolibd's lines, and loses exactly them when it is removed")
    func limiting() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let limited = try record(.limited)
        #expect(throws: PhotoLibError.flatpakBroadAccess(Self.wide, grants: ["home"])) {
            try apps.checkCanLimit(limited, to: .limited, confirmed: false)
        }
        try apps.checkCanLimit(limited, to: .limited, confirmed: true)
        try apps.checkCanLimit(limited, to: .authorized, confirmed: false)  // not limiting: nothing to confirm

        try store.write { try $0.insertApp(limited, createdAt: 0) }
        try apps.syncPicturesOverride(limited, confirmed: true)
        let written = try #require(overrideText)
        #expect(written.contains("[Context]") && written.contains("!home"), "\(written)")
        #expect(try store.read { try $0.picturesOverride(Self.wide) }?.tookBroad == true, "the confirmation is remembered")
        #expect(try apps.picturesReach(of: Self.wide).reach.broad == ["home"], "the reach is the app's own, photolibd's lines taken out")

        try apps.syncPicturesOverride(limited, removing: true)
        #expect(!(overrideText ?? "").contains("!home"), "\(overrideText ?? "")")
        #expect(try store.read { try $0.picturesOverride(Self.wide) }?.edits.isEmpty ?? true)
    }
}
