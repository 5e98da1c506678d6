import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoLibCore
import PhotoLibDoctor
import PhotoLibProtocol

/// Library: how photolibd is doing, in plain words — what `status` and `doctor` say.
enum LibraryRoutes {
    struct Health: Encodable {
        let library: String
        let state: String
        let summary: String
        let assets: Int
        let albums: Int
        let apps: Int
        let unreadable: [String]
        let withheld: [Withheld]
        let checks: [DoctorCheck]
    }

    struct Withheld: Encodable {
        let path: String
        let why: String
    }

    static func add(to router: Router<BasicRequestContext>, _ page: PageContext) {
        router.get("/api/library") { _, _ in
            try await AppRoutes.answer(page) {
                let status = try await page.daemon.call(.status, NoParams(), returning: StatusResult.self)
                let apps = try await page.daemon.call(.apps, NoParams(), returning: AppsResult.self)
                let refused = try await page.daemon.call(.assets, AssetsParams(refused: true), returning: AssetsResult.self)
                let withheld = try await page.daemon.call(.assets, AssetsParams(withheld: true), returning: AssetsResult.self)
                let installed = try await page.daemon.call(.installedApps, NoParams(), returning: InstalledAppsResult.self)
                var facts = SetupSurvey.gather(
                    library: status.library, views: status.views, socket: status.socket, namePolicy: .standard,
                    daemon: SetupFacts.Daemon(status: status, apps: apps, refused: refused, withheld: withheld), daemonUnreachable: nil)
                facts.flatpakApps = SetupFacts.flatpakApps(apps: apps, installed: installed)
                return try PageServer.json(Health(
                    library: status.library, state: status.state, summary: summary(status), assets: status.assets, albums: status.albums,
                    apps: status.apps, unreadable: status.unreadable ?? [],
                    withheld: withheld.assets.map { Withheld(path: $0.path, why: $0.withheld ?? "") },
                    checks: DoctorVerdicts.checks(facts)))
            }
        }
    }

    /// Words from the daemon, begun as a sentence.
    static func sentence(_ words: String) -> String {
        words.prefix(1).uppercased() + words.dropFirst()
    }

    /// The state in a sentence a person reads.
    static func summary(_ status: StatusResult) -> String {
        switch status.state {
        case "ready": "Everything is up to date: every app sees what you chose."
        case "degraded": "Some folders cannot be read or watched right now; their photos are kept as they were until they can be."
        case "scanning", "starting": "photolibd is reading your library (\(status.scannedFiles) files so far)."
        case "unavailable": "\(sentence(status.unavailable?.reason ?? "the library's server does not answer")). Nothing is lost or taken for deleted; apps may not open photos until it is back, and then everything catches up by itself."
        case "libraryMissing": "The library folder is missing; apps see nothing until it is back."
        default: "photolibd says: \(status.state)."
        }
    }
}
