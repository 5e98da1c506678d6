import PhotoLibConfiguration
import ArgumentParser
import Logging
import PhotoLibCore
import PhotoLibDaemon
import PhotoLibSystem

/// `photolibd`: per-app limited photo libraries. Flags override the config file; the config file overrides the embedded defaults.
struct PhotoLibd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photolibd",
        abstract: "Per-app limited photo libraries: watches a photo directory and keeps a view per app (hard links, or reflink clones where the filesystem clones).",
        discussion: """
            With no flags, serves ~/Pictures for the calling user: state and views under \
            ~/.local/share/photolibd, socket in $XDG_RUNTIME_DIR. Manage it with photolibctl.
            """,
        version: Daemon.version
    )

    @Option(help: "The photo library directory (default: ~/Pictures).")
    var library: String?

    @Option(name: .customLong("views-dir"), help: "Where each app's view directory is kept; must be on the library's mount.")
    var viewsDir: String?

    @Option(name: .customLong("state-dir"), help: "Where the database is kept (default: ~/.local/share/photolibd).")
    var stateDir: String?

    @Option(help: "The Unix socket to listen on (default: $XDG_RUNTIME_DIR/photolibd.sock).")
    var socket: String?

    @Option(help: "A configuration file (TOML) (default: ~/.config/photolibd/photolibd.toml when it exists).")
    var config: String?

    @Flag(help: "Log debug detail.")
    var verbose = false

    /// Catches SIGTERM and SIGINT before anything else, with whatever a launcher
    /// blocked cleared: a stop asked for at any moment, even before the daemon is
    /// ready to act on it, waits for it instead of being lost.
    static func start() async {
        do {
            try TerminationSignals.catchThem()
            var command = try parseAsRoot()
            if var daemon = command as? PhotoLibd {
                try await daemon.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    mutating func run() async throws {
        let verbose = self.verbose
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        let logger = Logger(label: "photolibd")
        do {
            let resolved = try DaemonConfiguration.resolve(
                configFile: config, flags: .init(library: library, views: viewsDir, state: stateDir, socket: socket))
            for warning in resolved.warnings { logger.warning("\(warning)") }
            try await Daemon.run(configuration: resolved, logger: logger)
        } catch let error as PhotoLibError {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
    }
}

