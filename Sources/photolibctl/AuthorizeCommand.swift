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
        let params = AuthorizeParams(app: app, status: status.rawValue, access: level.rawValue, forSeconds: try end.seconds, until: try end.untilSeconds)
        let info = try connection.withConnection { try $0.call(.authorize, params, returning: AppInfo.self) }
        let endsAt = level == .readWrite ? info.readWriteEndsAt : info.addOnlyEndsAt
        let returnsTo = (level == .readWrite ? info.readWriteReturnsTo : info.addOnlyReturnsTo)
            .flatMap(AuthorizationStatus.init(rawValue:)).map { ", then \($0.commandLineSpelling) again" } ?? ""
        print("\(info.app) is now \(status.commandLineSpelling) (\(level.commandLineSpelling))\(GrantEndOptions.describe(endsAt))\(returnsTo).")
    }
}
