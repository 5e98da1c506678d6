import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// Apps (Settings ▸ Privacy ▸ Photos): who may see what, changed as `photolibctl` would.
///
/// Every change is the same protocol call the matching `photolibctl` command
/// makes (`authorize`, `app.set`, `app.remove`, `select`, `deselect`), so the
/// app hears the same events either way.
enum AppRoutes {
    struct AccessChange: Decodable {
        let status: String
        /// The person confirmed what a Flatpak app with `home` or `host` loses.
        let confirm: Bool?
        let access: String?
        let forSeconds: Int64?
        let until: Int64?
    }

    /// What the app may have: its location, or whether captions and people leave with its picks.
    struct LocationChange: Decodable {
        let location: String?
        let captions: String?
    }

    struct SelectionChange: Decodable {
        let select: [String]?
        let deselect: [String]?
        let selectAlbums: [String]?
        let deselectAlbums: [String]?
        let forSeconds: Int64?
        let until: Int64?
    }

    struct RuleChange: Decodable {
        let takenFrom: Int64
        let takenTo: Int64
        let type: String?
    }

    struct RuleRemoval: Decodable {
        let rules: [Int64]
    }

    struct SelectionView: Encodable {
        let app: String
        let status: String
        let assets: [String]
        let albums: [String]
        let rules: [RuleInfo]
    }

    static func add(to router: Router<BasicRequestContext>, _ page: PageContext) {
        router.get("/api/session") { request, _ in
            guard let session = await page.signIn.session(request.cookies[PageServer.cookieName]?.value) else {
                return PageServer.problem(.unauthorized, PageRequestCheck.Refusal.noSession.message)
            }
            let status = try await page.daemon.call(.status, NoParams(), returning: StatusResult.self)
            return try PageServer.json(["csrf": session.csrfToken, "library": status.library, "state": status.state,
                                        "assets": String(status.assets)])
        }
        router.get("/api/apps") { _, _ in
            try await answer(page) {
                let apps = try await page.daemon.call(.apps, NoParams(), returning: AppsResult.self).apps
                let installed = try await page.daemon.call(.installedApps, NoParams(), returning: InstalledAppsResult.self).apps
                let total = try await page.daemon.call(.status, NoParams(), returning: StatusResult.self).assets
                // Other apps are shown by their own .desktop file where they have one, as menus show them.
                let home = ProcessIdentity.homeDirectory ?? "/"
                var desktop: [String: (name: String, hasIcon: Bool)] = [:]
                for app in apps where app.flatpak != true {
                    if let id = AppID(app.app), let found = DesktopEntries.lookUp(id, home: home) {
                        desktop[app.app] = (found.entry.name, found.iconFile != nil)
                    }
                }
                return try PageServer.json(["apps": AppCards.make(registered: apps, installed: installed, libraryAssets: total,
                                                                  ownerUID: page.ownerUID, desktop: desktop)])
            }
        }
        // An installed Flatpak app's icon, from its export: the only files this route reads are the ones the daemon names.
        router.get("/api/apps/:app/icon") { _, context in
            let app = try context.parameters.require("app")
            return try await answer(page) {
                let installed = try await page.daemon.call(.installedApps, NoParams(), returning: InstalledAppsResult.self).apps
                let path = installed.first(where: { $0.app == app })?.icon
                    ?? AppID(app).flatMap { DesktopEntries.lookUp($0, home: ProcessIdentity.homeDirectory ?? "/")?.iconFile }
                guard let path, let bytes = try PrivateFiles.read(path, limit: 1 << 20) else {
                    return PageServer.problem(.notFound, "\(app) has no icon.")
                }
                // The app made this file: as a document of its own (an SVG opened directly) it may run nothing.
                return Response(status: .ok, headers: [.contentType: path.hasSuffix(".svg") ? "image/svg+xml" : "image/png",
                                                       .cacheControl: "private, max-age=3600",
                                                       .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; sandbox",
                                                       HTTPField.Name("X-Content-Type-Options")!: "nosniff"],
                                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
        router.post("/api/apps/:app/access") { request, context in
            let app = try context.parameters.require("app")
            let change = try await request.decode(as: AccessChange.self, context: context)
            return try await answer(page) {
                _ = try await page.daemon.call(.authorize, AuthorizeParams(app: app, status: change.status, access: change.access,
                                                                           forSeconds: change.forSeconds, until: change.until,
                                                                           confirm: change.confirm),
                                               returning: AppInfo.self)
                return try PageServer.json(["done": true])
            }
        }
        router.post("/api/apps/:app/location") { request, context in
            let app = try context.parameters.require("app")
            let change = try await request.decode(as: LocationChange.self, context: context)
            return try await answer(page) {
                _ = try await page.daemon.call(.setApp, SetAppParams(app: app, location: change.location, captions: change.captions),
                                               returning: AppInfo.self)
                return try PageServer.json(["done": true])
            }
        }
        router.post("/api/apps/:app/remove") { _, context in
            let app = try context.parameters.require("app")
            return try await answer(page) {
                _ = try await page.daemon.call(.removeApp, AppParams(app: app), returning: EmptyResult.self)
                return try PageServer.json(["done": true])
            }
        }
        router.get("/api/apps/:app/selection") { _, context in
            let app = try context.parameters.require("app")
            return try await answer(page) {
                let selection = try await page.daemon.call(.selection, AppParams(app: app), returning: SelectionResult.self)
                return try PageServer.json(SelectionView(app: selection.app, status: selection.status, assets: selection.assets.map(\.id),
                                                         albums: selection.albums, rules: selection.rules ?? []))
            }
        }
        router.post("/api/apps/:app/selection") { request, context in
            let app = try context.parameters.require("app")
            let change = try await request.decode(as: SelectionChange.self, context: context)
            return try await answer(page) {
                var added = 0, removed = 0
                if !(change.deselect ?? []).isEmpty || !(change.deselectAlbums ?? []).isEmpty {
                    let result = try await page.daemon.call(.deselect, SelectionEditParams(
                        app: app, assets: change.deselect, albums: change.deselectAlbums), returning: SelectionEditResult.self)
                    removed = result.assets.count + result.albums.count
                }
                if !(change.select ?? []).isEmpty || !(change.selectAlbums ?? []).isEmpty {
                    let result = try await page.daemon.call(.select, SelectionEditParams(
                        app: app, assets: change.select, albums: change.selectAlbums, forSeconds: change.forSeconds, until: change.until),
                        returning: SelectionEditResult.self)
                    added = result.assets.count + result.albums.count
                }
                return try PageServer.json(["added": added, "removed": removed])
            }
        }
    }

    /// Rule grants (by when photos were taken) and the album list the editor offers.
    static func addRules(to router: Router<BasicRequestContext>, _ page: PageContext) {
        router.get("/api/albums") { _, _ in
            try await answer(page) { try PageServer.json(try await page.daemon.call(.albums, NoParams(), returning: AlbumsResult.self)) }
        }
        router.post("/api/apps/:app/rules") { request, context in
            let app = try context.parameters.require("app")
            let rule = try await request.decode(as: RuleChange.self, context: context)
            return try await answer(page) {
                let result = try await page.daemon.call(.select, SelectionEditParams(
                    app: app, assets: nil, albums: nil, takenFrom: rule.takenFrom, takenTo: rule.takenTo, type: rule.type),
                    returning: SelectionEditResult.self)
                return try PageServer.json(["rules": result.rules ?? []])
            }
        }
        router.post("/api/apps/:app/rules/remove") { request, context in
            let app = try context.parameters.require("app")
            let removal = try await request.decode(as: RuleRemoval.self, context: context)
            return try await answer(page) {
                let result = try await page.daemon.call(.deselect, SelectionEditParams(app: app, assets: nil, albums: nil, rules: removal.rules),
                                                        returning: SelectionEditResult.self)
                return try PageServer.json(["rules": result.rules ?? []])
            }
        }
    }

    /// Runs `body`; a refusal from the daemon becomes a 400 (404 for what does not exist) with its sentence.
    static func answer(_ page: PageContext, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as PhotoLibError {
            let notFound = ["unknownApp", "unknownAsset", "notAnAsset", "unknownAlbum", "unknownRequest"].contains(error.code)
            return PageServer.problem(notFound ? .notFound : .badRequest, error.message)
        }
    }
}
