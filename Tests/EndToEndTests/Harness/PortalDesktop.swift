import Foundation
import TestSupport
import Glibc

/// A person's desktop session as far as file dialogs go, run by the library's
/// owner: a private session bus (`dbus-daemon`) that starts, on first use,
/// Debian's `xdg-desktop-portal` and `xdg-document-portal` (FUSE, at
/// `runtime/doc`) and photolibd's backend (`photolibd-portal`, from its own
/// D-Bus service file, as installed), with photolibd chosen for FileChooser
/// the way docs/USING.md tells people on xdg-desktop-portal 1.16
/// (`XDG_CURRENT_DESKTOP=photolibd:…` for the portal alone).
///
/// The person's browser is `$BROWSER`, which records what it is asked to
/// open (`opened`). Stop it with `defer { desktop.stop() }`.
final class PortalDesktop {
    let library: TestLibrary
    let owner: TestOwner
    /// `$XDG_RUNTIME_DIR`: the bus socket and the Documents portal's mount.
    let runtime: String
    let address: String
    /// Where the backend keeps the copies it hands out.
    let picks: String
    /// One line per page the backend asked the browser to open (a sign-in file).
    let opened: String
    let busLog: String
    private let bus: SpawnedProcess
    private var extras: [SpawnedProcess] = []

    /// - Parameters:
    ///   - forwardTo: the backend every other call goes to.
    ///   - environment: more for the session (DISPLAY for a desktop under Xvfb).
    ///   - withGtk: whether xdg-desktop-portal-gtk is installed for the session; by default, when `environment`
    ///     gives a display. Without one it cannot start, and xdg-desktop-portal 1.16 then meets a backend that dies
    ///     at each activation: it crashes on any SaveFile (its Lockdown proxy is missing), and a loaded machine saw
    ///     it leave the bus while answering an app's first call. A session with no display leaves it out.
    static func start(for library: TestLibrary, owner: TestOwner, keepPicks: Int = 600, sheetTimeout: Int = 600,
                      forwardTo: String = "org.freedesktop.impl.portal.desktop.gtk", withGtk: Bool? = nil,
                      environment: [String: String] = [:]) async throws -> PortalDesktop {
        let withGtk = withGtk ?? (environment["DISPLAY"] != nil)
        let root = library.root
        let runtime = root + "/run", portals = root + "/portals", services = root + "/services", picks = root + "/picks"
        for directory in [runtime, portals, services] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, directory == runtime ? 0o700 : 0o755)
            try owner.own(directory)
        }
        // As installed: the .portal file from the repository, and the D-Bus service naming the built backend.
        try FileManager.default.copyItem(atPath: RunningDaemon.packageRoot + "/portal/photolibd.portal", toPath: portals + "/photolibd.portal")
        if withGtk {
            try FileManager.default.copyItem(atPath: "/usr/share/xdg-desktop-portal/portals/gtk.portal", toPath: portals + "/gtk.portal")
        }
        let backend = [try ReachableCopies.binary("photolibd-portal"), "--socket", library.socket, "--forward-to", forwardTo,
                       "--keep-picks", String(keepPicks), "--sheet-timeout", String(sheetTimeout), "--picks-dir", picks, "--idle-exit", "30"]
        let installed = try String(contentsOfFile: RunningDaemon.packageRoot + "/portal/org.freedesktop.impl.portal.desktop.photolibd.service",
                                   encoding: .utf8)
        try installed.replacingOccurrences(of: "Exec=/usr/local/libexec/photolibd-portal", with: "Exec=" + backend.joined(separator: " "))
            .write(toFile: services + "/org.freedesktop.impl.portal.desktop.photolibd.service", atomically: true, encoding: .utf8)
        let opened = root + "/opened"
        let browser = root + "/browser.sh"
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> \(opened)\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let socket = runtime + "/bus"
        let config = root + "/session.conf"
        try """
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(services)</servicedir>
              <servicedir>/usr/share/dbus-1/services</servicedir>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        var session = ["HOME": root, "USER": owner.name, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime,
                       "XDG_DESKTOP_PORTAL_DIR": portals, "XDG_CURRENT_DESKTOP": "photolibd:gnome", "BROWSER": browser,
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"]
        session.merge(environment) { $1 }
        let command = owner.command("/usr/bin/env") + ["-i"] + session.map { "\($0.key)=\($0.value)" }
            + ["/usr/bin/dbus-daemon", "--config-file=\(config)", "--nofork", "--nopidfile"]
        let bus = try SpawnedProcess(command[0], Array(command.dropFirst()), output: root + "/bus.out")
        try await waitUntil("the session bus to listen", while: bus) { FileManager.default.fileExists(atPath: socket) }
        return PortalDesktop(library: library, owner: owner, runtime: runtime, address: "unix:path=\(socket)", picks: picks, opened: opened,
                             busLog: root + "/bus.out", bus: bus)
    }

    private init(library: TestLibrary, owner: TestOwner, runtime: String, address: String, picks: String, opened: String, busLog: String,
                 bus: SpawnedProcess) {
        self.library = library
        self.owner = owner
        self.runtime = runtime
        // xdg-document-portal mounts its FUSE filesystem there once asked: undone at the run's end if a test does not.
        RunRecord.mounted(runtime + "/doc")
        self.address = address
        self.picks = picks
        self.opened = opened
        self.busLog = busLog
        self.bus = bus
    }

    /// What the bus and everything it started printed (the portals', and photolibd-portal's, logs).
    var log: String { (try? String(contentsOfFile: busLog, encoding: .utf8)) ?? "(no bus log)" }

    /// A command run by the owner in the session (gdbus, zenity), with its environment.
    func command(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> [String] {
        var session = ["HOME": library.root, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": address]
        session.merge(environment) { $1 }
        return owner.command("/usr/bin/env") + ["-i"] + session.map { "\($0.key)=\($0.value)" } + [executable] + arguments
    }

    /// Has the bus start `name` now, as a person's session does at login, and waits until it owns its name.
    /// Fails with the session's log when it cannot start, so a backend that died at its start is named as such
    /// rather than met later as another program's crash.
    func started(_ name: String) async throws {
        let asked = command("/usr/bin/gdbus", ["call", "--session", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                              "-m", "org.freedesktop.DBus.StartServiceByName", name, "0"])
        let result = try await run(asked[0], Array(asked.dropFirst()))
        guard result.status == 0 else { throw TestFailure("the bus could not start \(name): \(result.stderr); the session: \(log)") }
    }

    /// The Documents portal started and mounted, as a Flatpak's sandbox needs it before the app runs.
    func documentsMounted() async throws -> String {
        let asked = command("/usr/bin/gdbus", ["call", "--session", "-d", "org.freedesktop.portal.Documents", "-o", "/org/freedesktop/portal/documents",
                                              "-m", "org.freedesktop.portal.Documents.GetMountPoint"])
        let result = try await run(asked[0], Array(asked.dropFirst()))
        guard result.status == 0 else { throw TestFailure("the Documents portal did not start: \(result.stderr); the bus: \(log)") }
        return runtime + "/doc"
    }

    /// The documents the Documents portal exports to `app` (its `List`), as gdbus prints them.
    func documents(of app: String) async throws -> String {
        let asked = command("/usr/bin/gdbus", ["call", "--session", "-d", "org.freedesktop.portal.Documents", "-o", "/org/freedesktop/portal/documents",
                                              "-m", "org.freedesktop.portal.Documents.List", app])
        let result = try await run(asked[0], Array(asked.dropFirst()))
        guard result.status == 0 else { throw TestFailure("Documents.List failed: \(result.stderr)") }
        return result.stdout
    }

    /// `Tests/Browser/portal_client.py ARGUMENTS` as a Flatpak app `app` runs it: in bubblewrap, with a
    /// `.flatpak-info` naming it, the session bus, its own view of the Documents portal at `runtime/doc`
    /// (as flatpak binds `doc/by-app/APP`), and `out` writable at /out. Nothing else of the host's files but /usr.
    func sandboxed(app: String, _ arguments: [String], out: String, output: String) async throws -> SpawnedProcess {
        let info = library.root + "/flatpak-info-\(app)"
        try "[Application]\nname=\(app)\n\n[Instance]\ninstance-id=\(UInt32.random(in: 1..<UInt32.max))\n"
            .write(toFile: info, atomically: true, encoding: .utf8)
        chmod(info, 0o644)
        let documents = try await documentsMounted()
        let bwrap = ["--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                     "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", info, "/.flatpak-info",
                     "--bind", runtime + "/bus", runtime + "/bus", "--bind", documents + "/by-app/" + app, documents,
                     "--bind", out, "/out", "--ro-bind", try ReachableCopies.browserTool("portal_client.py"), "/app/portal_client.py",
                     "--unshare-all", "--die-with-parent", "--", "/usr/bin/python3", "/app/portal_client.py"] + arguments
        let command = command("/usr/bin/bwrap", bwrap)
        let process = try SpawnedProcess(command[0], Array(command.dropFirst()), output: output)
        extras.append(process)
        return process
    }

    /// The same client run unsandboxed, as a host app.
    func onHost(_ arguments: [String], output: String) throws -> SpawnedProcess {
        let command = command("/usr/bin/python3", [try ReachableCopies.browserTool("portal_client.py")] + arguments)
        let process = try SpawnedProcess(command[0], Array(command.dropFirst()), output: output)
        extras.append(process)
        return process
    }

    /// Starts a program of the session (a stand-in backend, Xvfb, zenity) as the owner; stopped with the desktop.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String] = [:], output: String) throws -> SpawnedProcess {
        let command = command(executable, arguments, environment: environment)
        let process = try SpawnedProcess(command[0], Array(command.dropFirst()), output: output)
        extras.append(process)
        return process
    }

    /// The sign-in pages the backend had the browser open, oldest first (whole lines only).
    func openedPages() -> [String] {
        let text = (try? String(contentsOfFile: opened, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { _ in text.hasSuffix("\n") }
    }

    /// An X server of the owner's (Xvfb) for GTK programs; returns its DISPLAY.
    func startDisplay() async throws -> String {
        let (display, server) = try await Self.startDisplay(library: library, owner: owner)
        extras.append(server)
        return display
    }

    /// An X server of the owner's, for a session whose portals need a display from the start (xdg-desktop-portal-gtk).
    static func startDisplay(library: TestLibrary, owner: TestOwner) async throws -> (String, SpawnedProcess) {
        let output = library.root + "/xvfb.out"
        let command = owner.command("/usr/bin/Xvfb") + ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x900x24"]
        let server = try SpawnedProcess(command[0], Array(command.dropFirst()), output: output)
        var display = ""
        try await waitUntil("Xvfb to say its display", while: server) {
            let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            display = printed.split(separator: "\n").first { Int($0) != nil }.map(String.init) ?? ""
            return !display.isEmpty
        }
        return (":" + display, server)
    }

    /// Ends the session and everything it started; the Documents portal's mount goes with it.
    func stop() {
        for process in extras { process.signal(SIGTERM) }
        bus.signal(SIGTERM)
        // What the bus started outlives it briefly; the mount must not outlive the test's directory.
        _ = try? runBlocking("/usr/bin/pkill", ["-TERM", "-u", String(owner.uid), "-f", "xdg-desktop-portal|xdg-document-portal|xdg-permission-store|photolibd-portal|photolibd-page"])
        _ = try? runBlocking("/bin/umount", ["-l", runtime + "/doc"])
    }
}
