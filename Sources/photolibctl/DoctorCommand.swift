import ArgumentParser
import PhotoLibClient
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibDoctor
import PhotoLibProtocol
import PhotoLibSystem

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check mounts, permissions, inotify limits and originals apps could write.",
        discussion: """
            One line per check: pass, warn or FAIL, what was found and what to do. Exits 1 when any check \
            fails. Changes nothing. When photolibd answers, its own paths are checked; when it does not \
            (it may refuse to start because of what doctor finds), the paths come from the same places \
            photolibd reads: --config (else ~/.config/photolibd/photolibd.toml), the flags below, the defaults.
            """)

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The configuration file photolibd uses (default: ~/.config/photolibd/photolibd.toml when it exists).")
    var config: String?
    @Option(help: "The library photolibd is given with --library.")
    var library: String?
    @Option(name: .customLong("views-dir"), help: "The views directory photolibd is given with --views-dir.")
    var viewsDir: String?
    @Option(name: .customLong("state-dir"), help: "The state directory photolibd is given with --state-dir.")
    var stateDir: String?
    @OptionGroup var output: JSONOption

    func run() throws {
        var configuration: DaemonConfiguration
        do {
            configuration = try .resolve(configFile: config, flags: .init(library: library, views: viewsDir, state: stateDir, socket: connection.socket))
        } catch {
            Output.error(error.message)
            throw ExitCode(1)
        }
        for warning in configuration.warnings { Output.warning(warning) }
        let socket = PhotoLibConnection.socketPath(explicit: configuration.socketIsDefault ? nil : configuration.socket)
        var daemon: SetupFacts.Daemon?
        var flatpakApps: [SetupFacts.FlatpakApp] = []
        var unreachable: String?
        do {
            let connection = try PhotoLibConnection(socketPath: socket, receiveTimeout: 10)
            let status = try connection.call(.status, NoParams(), returning: StatusResult.self)
            let apps = try connection.call(.apps, NoParams(), returning: AppsResult.self)
            let refused = try connection.call(.assets, AssetsParams(refused: true), returning: AssetsResult.self)
            let withheld = try connection.call(.assets, AssetsParams(withheld: true), returning: AssetsResult.self)
            daemon = SetupFacts.Daemon(status: status, apps: apps, refused: refused, withheld: withheld)
            flatpakApps = SetupFacts.flatpakApps(apps: apps, installed: try connection.call(.installedApps, NoParams(), returning: InstalledAppsResult.self))
            // The daemon's own paths win: it may have been started with other flags.
            configuration.library = status.library
            configuration.views = status.views
            configuration.setSocket(status.socket)
        } catch {
            unreachable = error.message
            configuration.setSocket(socket)
        }
        let facts = SetupSurvey.gather(library: configuration.library, views: configuration.views, socket: configuration.socket,
                                       namePolicy: configuration.namePolicy, daemon: daemon, daemonUnreachable: unreachable)
        var withFlatpak = facts
        withFlatpak.flatpakApps = flatpakApps
        withFlatpak.flatpakVersion = FlatpakFiles.version()
        let checks = DoctorVerdicts.checks(withFlatpak)
        if output.json {
            Output.json(checks)
        } else {
            for check in checks { print(Self.line(check)) }
        }
        if checks.contains(where: { $0.outcome == .fail }) { throw ExitCode(1) }
    }

    static func line(_ check: DoctorCheck) -> String {
        let mark = switch check.outcome {
        case .pass: "pass"
        case .warn: "warn"
        case .fail: "FAIL"
        }
        return "\(mark)  \(check.name): \(check.detail)" + (check.advice.map { " Fix: \($0)" } ?? "")
    }
}
