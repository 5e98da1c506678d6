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
        let info = try connection.withConnection {
            try $0.call(.authorize, AuthorizeParams(app: app, status: status.rawValue, access: level.rawValue), returning: AppInfo.self)
        }
        print("\(info.app) is now \(status.commandLineSpelling) (\(level.commandLineSpelling)).")
    }
}
