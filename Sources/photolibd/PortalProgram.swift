import ArgumentParser
import Foundation
import Logging
import PhotoLibClient
import PhotoLibPortal
import PhotoLibSystem

/// `photolibd-portal`: the file-chooser portal backend that answers apps'
/// requests for photos with a one-time pick on the person's page.
struct PhotoLibdPortal: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photolibd-portal",
        abstract: "Answer apps' file dialogs for photos with photolibd's picker (an xdg-desktop-portal FileChooser backend).",
        discussion: """
            Started by D-Bus when xdg-desktop-portal first needs it (org.freedesktop.impl.portal.desktop.photolibd), as the \
            person. An OpenFile whose filter asks for images or videos (or from an app registered with photolibd) opens \
            the pick sheet on the person's page; the app receives private, read-only copies (without location unless \
            the person allowed it), removed after --keep-picks seconds along with the Documents portal's export of them. \
            Every other call (SaveFile, SaveFiles, OpenFile for documents or folders) goes unchanged to --forward-to. \
            It exits after --idle-exit seconds with nothing to do. See docs/USING.md, "Photos in every app's file dialog".
            """,
        version: "0.1.0")

    @Option(help: "The bus name to take (the .portal file's DBusName).")
    var busName = "org.freedesktop.impl.portal.desktop.photolibd"

    @Option(help: "The backend that answers every other file dialog (the one portals.conf chose before photolibd).")
    var forwardTo = "org.freedesktop.impl.portal.desktop.gtk"

    @Option(help: "The daemon's socket (default: as photolibctl finds it).")
    var socket: String?

    @Option(help: "Where the copies handed to apps are kept until they expire (default: $XDG_STATE_HOME/photolibd/portal-picks).")
    var picksDir: String?

    @Option(help: "Seconds a pick's copies stay readable by the app.")
    var keepPicks: Int64 = 900

    @Option(help: "Seconds a pick's sheet waits for the person before the app is told it ended.")
    var sheetTimeout: Int = 600

    @Option(help: "Exit after this many seconds with no dialog open and no copy waiting to expire.")
    var idleExit: Double = 120

    func validate() throws {
        guard keepPicks > 0 else { throw ValidationError("--keep-picks must be a positive number of seconds.") }
        guard sheetTimeout > 0 else { throw ValidationError("--sheet-timeout must be a positive number of seconds.") }
        guard idleExit > 0 else { throw ValidationError("--idle-exit must be a positive number of seconds.") }
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            // Under systemd each line carries its priority for journald, as the daemon's do.
            var handler = StderrLogHandler(label: label)
            handler.logLevel = .notice
            return handler
        }
        let logger = Logger(label: "photolibd-portal")
        guard let picks = picksDir ?? Self.defaultPicksDirectory() else {
            throw ValidationError("Neither XDG_STATE_HOME nor HOME is set; pass --picks-dir DIR.")
        }
        let settings = PortalSettings(busName: busName, forwardTo: forwardTo, socket: PhotoLibConnection.socketPath(explicit: socket),
                                      shelfDirectory: picks, keepSeconds: keepPicks, sheetSeconds: sheetTimeout, idleSeconds: idleExit)
        do {
            try FileChooserBackend(settings: settings, logger: logger).run()
        } catch {
            logger.error("photolibd-portal stops: \(error)")
            throw ExitCode.failure
        }
    }

    /// Copies live on disk (a video may be gigabytes), in the person's state directory, which only they may read.
    static func defaultPicksDirectory() -> String? {
        if let state = ProcessIdentity.environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/photolibd/portal-picks" }
        return ProcessIdentity.environment("HOME").map { $0 + "/.local/state/photolibd/portal-picks" }
    }
}
