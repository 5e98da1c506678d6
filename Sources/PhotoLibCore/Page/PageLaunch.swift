/// How a request's sheet is opened from the daemon or the file-dialog backend: `photolibctl ui
/// --request N`, which starts the page server and a browser.
///
/// Run by hand, the two start it directly, in a session of its own. Run as systemd user services,
/// they live in a sandbox (no network, no writable home, no W^X memory) that whatever they start
/// would inherit: a page server that cannot listen on loopback, a browser that cannot run its JIT.
/// There they ask the user manager to start it as a unit of its own (`systemd-run --user`),
/// outside their sandbox, with the desktop's display variables they were given.
public enum PageLaunch: Equatable, Sendable {
    /// `photolibctl` started directly.
    case direct(executable: String, arguments: [String])
    /// `systemd-run` starting `photolibctl` as a transient user unit named `unit`.
    case transientUnit(unit: String, systemdRun: String, arguments: [String])

    /// The variables a browser needs to reach the person's desktop, passed to the transient unit
    /// where the service has them (a user manager's own environment may lack them).
    public static let desktopVariables = ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "BROWSER", "XDG_CURRENT_DESKTOP",
                                          "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"]

    /// What photolibctl is run with to open request `request`'s sheet, directly or in a unit.
    public static func photolibctlArguments(request: Int64, socket: String) -> [String] {
        ["ui", "--request", String(request), "--socket", socket]
    }

    /// How to open request `request`'s sheet. `environment` is the caller's: systemd sets
    /// `INVOCATION_ID` for every unit it runs, and a user manager's units have `XDG_RUNTIME_DIR`
    /// (a system unit serving another user has none, and starts it directly). `unitSuffix` makes
    /// the unit's name unique (a second click on one request while the first page still runs).
    public static func plan(photolibctl: String, request: Int64, socket: String, environment: [String: String],
                            systemdRun: String?, unitSuffix: String) -> PageLaunch {
        let arguments = photolibctlArguments(request: request, socket: socket)
        guard let systemdRun, environment["INVOCATION_ID"] != nil, environment["XDG_RUNTIME_DIR"] != nil else {
            return .direct(executable: photolibctl, arguments: arguments)
        }
        let unit = "photolibd-page-request-\(request)-\(unitSuffix)"
        let passed = desktopVariables.compactMap { name in environment[name].map { "--setenv=\(name)=\($0)" } }
        // ExitType=cgroup: the unit lasts while the page server and browser photolibctl starts
        // run, not only as long as photolibctl itself (which exits once they are started).
        return .transientUnit(unit: unit, systemdRun: systemdRun,
                              arguments: ["--user", "--collect", "--quiet", "--unit=" + unit, "--property=ExitType=cgroup",
                                          "--description=photolibd: the page for request \(request)"]
                                  + passed + ["--", photolibctl] + arguments)
    }
}
