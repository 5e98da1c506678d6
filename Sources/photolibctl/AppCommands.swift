import ArgumentParser
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Register or remove an app, or say how to sandbox it.", subcommands: [Add.self, Set.self, Remove.self, Sandbox.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an app and the user ID it runs as (it starts as not-determined).")

        @Argument(help: "The app's reverse-DNS ID, such as org.example.Viewer.")
        var app: String

        @Option(help: "The uid the app runs as.")
        var uid: UInt32?

        @Option(help: "The user name the app runs as.")
        var user: String?

        @Option(help: "Why the app wants photos, shown when it asks.")
        var purpose: String?

        @Option(help: "precise: the app sees where photos were taken; none (the default): it gets them without any location field.")
        var location: String?

        @Flag(help: """
            The app is an installed Flatpak app (APP is its Flatpak ID; it runs as you). When you give it \
            Selected Photos or None, its Pictures folder becomes its view from its next start.
            """)
        var flatpak = false

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            try AppCommand.validateLocation(location)
            if flatpak {
                if uid != nil || user != nil {
                    throw ValidationError("A Flatpak app runs as you: give --flatpak alone, without --uid or --user.")
                }
                return
            }
            if (uid == nil) == (user == nil) {
                throw ValidationError("Give exactly one of --uid UID or --user NAME: the identity the app runs as, or --flatpak for an installed Flatpak app.")
            }
            if let user, ProcessIdentity.userID(named: user) == nil {
                throw ValidationError("There is no user named '\(user)'; give an existing user name, or --uid.")
            }
        }

        func run() throws {
            let uid = flatpak ? ProcessIdentity.userID : (self.uid ?? ProcessIdentity.userID(named: user!)!)
            let info = try connection.withConnection {
                try $0.call(.addApp, AddAppParams(app: app, uid: uid, purpose: purpose, location: location, flatpak: flatpak ? true : nil),
                            returning: AppInfo.self)
            }
            if info.flatpak == true {
                print("Registered the Flatpak app \(info.app), location \(info.location). It keeps its own access until you choose: with Selected Photos or None, its Pictures folder (\(info.view)) becomes its view from its next start.")
                return
            }
            print("Registered \(info.app) for uid \(info.uid), location \(info.location); its view is \(info.view) (empty until you authorize it).")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change what a registered app may see: --location precise|none, --captions shared|removed.",
            discussion: """
                With none, every photo or video that carries a location appears in the app's view (and in \
                what it picks) as a copy with every location field removed; the rest is linked as it is. \
                The view changes at once and the app is told to reload. --captions says whether captions, \
                titles and people's names leave with what the app picks when the person does not choose in the \
                pick's sheet (removed by default); camera and lens serial numbers never leave.
                """)

        @Argument(help: "The app's ID.")
        var app: String

        @Option(help: "precise: the app sees where photos were taken; none: it gets them without any location field.")
        var location: String?

        @Option(help: "shared: captions, titles and people's names leave with its picks; removed: they are taken out.")
        var captions: String?

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            guard location != nil || captions != nil else { throw ValidationError("Say what to change, such as --location none or --captions shared.") }
            try AppCommand.validateLocation(location)
            if let captions, SharingChoice.captionsSetting(captions) == nil {
                throw ValidationError("'\(captions)' is not a captions setting; use shared or removed.")
            }
        }

        func run() throws {
            let info = try connection.withConnection {
                try $0.call(.setApp, SetAppParams(app: app, location: location, captions: captions), returning: AppInfo.self)
            }
            print("\(info.app) now has location \(info.location); captions and people's names are \(info.captions ?? "removed") in what it picks.")
        }
    }

    static func validateLocation(_ text: String?) throws {
        if let text, LocationPolicy(rawValue: text) == nil {
            throw ValidationError(PhotoLibError.invalidLocationPolicy(text).message)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an app: its view is deleted at once (files it already opened stay readable to it).")

        @Argument(help: "The app's ID.")
        var app: String

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            _ = try connection.withConnection { try $0.call(.removeApp, AppParams(app: app), returning: EmptyResult.self) }
            print("Removed \(app).")
        }
    }
}

struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "List registered apps and their authorizations, and installed Flatpak apps that can reach your photos.",
        discussion: """
            A Flatpak app is shown by the name of its .desktop file. Installed Flatpak apps that can reach \
            your Pictures folder through their own permission are listed after the registered apps, with \
            what they can reach: 'photolibctl authorize APP limited' (or denied) limits one by its ID from \
            its next start. With --installed, every installed Flatpak app is listed.
            """)

    @Flag(help: "List the installed Flatpak apps (user and system installations) instead, each with what it can reach.")
    var installed = false

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let (result, flatpaks) = try connection.withConnection { connection in
            (try connection.call(.apps, NoParams(), returning: AppsResult.self),
             try connection.call(.installedApps, NoParams(), returning: InstalledAppsResult.self).apps)
        }
        if installed {
            if output.json { return Output.json(flatpaks) }
            return Output.table(["NAME", "APP", "INSTALLATION", "WHAT IT CAN REACH"], flatpaks.map { app in
                [app.name, app.app, app.installation, app.registered ? "Registered: see 'photolibctl apps'." : app.reach]
            })
        }
        if output.json { return Output.json(result.apps) }
        let names = Dictionary(flatpaks.map { ($0.app, $0.name) }, uniquingKeysWith: { first, _ in first })
        Output.table(["APP", "NAME", "UID", "READ-WRITE", "ADD-ONLY", "LOCATION", "SELECTED", "ENTRIES", "VIEW"], result.apps.map { app in
            [app.app, names[app.app] ?? AppID(app.app).flatMap { DesktopEntries.lookUp($0, home: ProcessIdentity.homeDirectory ?? "/")?.entry.name } ?? "-",
             String(app.uid), app.readWrite, app.addOnly, app.location,
             "\(Output.count(app.selectedAssets, "asset")), \(Output.count(app.selectedAlbums, "album"))", app.entries?.form ?? "-", app.view]
        })
        for app in result.apps {
            if let reason = app.entries?.reason { print("\(app.app): its Pictures folder holds full copies: \(reason).") }
        }
        let unregistered = flatpaks.filter { !$0.registered && $0.reachesPictures }
        guard !unregistered.isEmpty else { return }
        print("")
        print("Installed Flatpak apps that see your photos through their own permission (limit one with 'photolibctl authorize APP limited'):")
        Output.table(["NAME", "APP", "WHAT IT CAN REACH"], unregistered.map { [$0.name, $0.app, $0.reach] })
    }
}

extension AppCommand {
    /// `photolibctl app sandbox APP [--bwrap]`: how to give a sandboxed app exactly its view and endpoint.
    struct Sandbox: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the flatpak override (or bubblewrap) arguments that give APP its view, read-only, its endpoint and its inbox, and nothing of the home or the library.",
            discussion: """
                Run the printed 'flatpak override' command once (it changes the app's permissions for \
                your user); with --bwrap, add the printed arguments to a bwrap command line after the \
                runtime's binds. Inside, the app finds its endpoint in $PHOTOLIBD_ENDPOINT, its view \
                in $PHOTOLIBD_VIEW and its inbox in $PHOTOLIBD_INBOX.
                """)

        @Argument(help: "The app's ID (its Flatpak ID when it is a Flatpak app).")
        var app: String

        @Flag(help: "Print bubblewrap arguments instead of a flatpak override command.")
        var bwrap = false

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let (apps, status) = try connection.withConnection { connection in
                (try connection.call(.apps, NoParams(), returning: AppsResult.self),
                 try connection.call(.status, NoParams(), returning: StatusResult.self))
            }
            guard let info = apps.apps.first(where: { $0.app == app }), let id = AppID(app) else {
                Output.error(PhotoLibError.unknownApp(AppID(app) ?? AppID("invalid.app")!).message)
                throw ExitStatus.notFound.exitCode
            }
            guard let endpoint = info.endpoint else {
                Output.error("The daemon gave \(app) no endpoint; update photolibd, or check its log.")
                throw ExitStatus.failure.exitCode
            }
            let arguments = SandboxArguments(app: id, view: info.view, endpoint: endpoint, inbox: info.inbox, library: status.library,
                                             runtimeDirectory: ProcessIdentity.environment("XDG_RUNTIME_DIR"))
            print((bwrap ? arguments.bubblewrap : arguments.flatpakOverride).map(SandboxArguments.shellQuoted).joined(separator: " "))
        }
    }
}
