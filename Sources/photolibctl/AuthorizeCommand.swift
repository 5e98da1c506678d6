import ArgumentParser
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol

struct AuthorizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize",
        abstract: "Set an app's authorization: authorized (whole library), limited (its selection), denied, restricted, not-determined.")

    @Argument(help: "The app's ID.")
    var app: String

    @Argument(help: "authorized, limited, denied, restricted or not-determined.")
    var status: String

    @Option(help: "The access level: read-write (default) or add-only.")
    var access: String = "read-write"

    @Flag(help: """
        For a Flatpak app that reaches your photos through its whole home folder or the host: take that \
        away to limit it (it keeps Desktop, Documents, Downloads, Music and Videos, and its own data).
        """)
    var confirm = false

    @OptionGroup(title: "For a while (then the status returns to what it was)") var end: GrantEndOptions
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard AuthorizationStatus(spelling: status) != nil else {
            throw ValidationError(PhotoLibError.invalidStatus(status).message)
        }
        guard AccessLevel(spelling: access) != nil else {
            throw ValidationError(PhotoLibError.invalidAccessLevel(access).message)
        }
    }

    func run() throws {
        let status = AuthorizationStatus(spelling: self.status)!
        let level = AccessLevel(spelling: access)!
        let params = AuthorizeParams(app: app, status: status.rawValue, access: level.rawValue, forSeconds: try end.seconds, until: try end.untilSeconds,
                                     confirm: confirm ? true : nil)
        // A view of a whole large library takes a while: a progress line on a terminal meanwhile.
        let progress = ProgressLine(json: false)
        defer { progress.clear() }
        let (info, flatpak) = try connection.withConnection { connection in
            let info = try connection.call(.authorize, params, returning: AppInfo.self, progress: progress.handler)
            progress.clear()
            let flatpak = info.flatpak == true
                ? try connection.call(.installedApps, NoParams(), returning: InstalledAppsResult.self).apps.first { $0.app == info.app } : nil
            return (info, flatpak)
        }
        let endsAt = level == .readWrite ? info.readWriteEndsAt : info.addOnlyEndsAt
        let returnsTo = (level == .readWrite ? info.readWriteReturnsTo : info.addOnlyReturnsTo)
            .flatMap(AuthorizationStatus.init(rawValue:)).map { ", then \($0.commandLineSpelling) again" } ?? ""
        print("\(info.app) is now \(status.commandLineSpelling) (\(level.commandLineSpelling))\(GrantEndOptions.describe(endsAt))\(returnsTo).")
        if let flatpak, level == .readWrite {
            // Flatpak reads an app's permissions when it starts: say when this one sees the change.
            let when = flatpak.running ? "when \(flatpak.name) next starts (it is running now: quit it and start it again)" : "when \(flatpak.name) next starts"
            print(FlatpakPicturesFolder.limits(status)
                  ? "\(flatpak.name) finds \(status == .limited ? "only the photos you select" : "no photos") in its Pictures folder \(when)."
                  : "\(flatpak.name) reads your Pictures folder through its own Flatpak permission \(when).")
        }
    }
}
