import ArgumentParser
import PhotoLibClient
import PhotoLibProtocol

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon, its library, counts, apps and scan progress.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let status = try connection.withConnection { try $0.call(.status, NoParams(), returning: StatusResult.self) }
        if output.json { return Output.json(status) }
        print("photolibd \(status.version) (pid \(status.pid)): \(status.state)")
        print("library:  \(status.library)")
        print("views:    \(status.views)")
        print("socket:   \(status.socket)")
        print("assets:   \(status.assets) in \(status.albums) albums")
        print("apps:     \(status.apps)")
        if let mode = status.viewMode {
            let form = mode == "clones" ? "reflink clones" : mode == "references" ? "references, served through FUSE" : "hard links"
            print("entries:  \(form) (\(status.viewModeReason ?? mode))")
        }
        if let fuse = status.fuseViews {
            print("fuse:     \(fuse == "available" ? "available: a limited Flatpak app's Pictures folder is served read-only from its view where it cannot clone" : "not available (\(fuse)): such folders hold copies")")
        }
        if let count = status.derivatives, let bytes = status.derivativeBytes {
            print("no-location copies: \(count) (\(Output.size(bytes))), for apps with location none")
        }
        if let withheld = status.withheldFromNoLocation, withheld > 0 {
            print("withheld: \(withheld) files from apps with location none: whether they hold a location cannot be told (photolibctl assets --withheld says why)")
        }
        print("watches:  \(status.watches)\(status.failedWatches > 0 ? " (\(status.failedWatches) failed: raise fs.inotify.max_user_watches)" : "")")
        if let rounds = status.rounds {
            print("rounds:   every \(rounds.intervalSeconds) s over \(rounds.directories) directories and \(rounds.files) files, because \(rounds.reason); the last took \(rounds.lastRoundMilliseconds) ms\(rounds.lastFailure.map { " and failed: \($0)" } ?? "")")
        }
        if let away = status.unavailable {
            print("unavailable: since \(Output.date(away.since * 1_000_000_000)): \(away.reason); nothing is taken for gone, and the first round the server answers brings everything up to date")
        }
        if let down = status.watcherDown {
            print("watching: changes to the library go unseen now: \(down)")
        }
        if let unreadable = status.unreadable, !unreadable.isEmpty {
            print("unreadable (assets there are kept as they were until photolibd can read them again; check their permissions):")
            for path in unreadable { print("  \(path.isEmpty ? "(the library itself)" : path)") }
        }
        if status.state == "scanning" || status.state == "starting" {
            print("scan:     \(status.scannedFiles) files in \(status.scannedDirectories) directories so far")
        }
    }
}
