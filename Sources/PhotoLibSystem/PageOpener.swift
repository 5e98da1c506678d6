import Foundation
import PhotoLibCore

/// Opens one request's sheet on the person's page: runs `photolibctl ui
/// --request N`, which starts the page server when needed and opens the sheet
/// in the browser (`$BROWSER`, else `xdg-open`). Used by the daemon when a
/// notification is clicked and by the file-chooser portal when an app asks.
public enum PageOpener {
    /// Why the sheet could not be opened.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case notInstalled(besides: String?)
        case cannotStart(String, SystemCallError)

        public var description: String {
            switch self {
            case .notInstalled(let besides):
                "photolibctl is not installed \(besides.map { "beside \($0)" } ?? "") or in /usr/bin or /usr/local/bin; reinstall photolibd (make install)"
            case .cannotStart(let path, let error): "\(path) could not start: \(error)"
            }
        }
    }

    /// photolibctl beside this executable (or in its prefix's bin, for one in libexec), else the installed one.
    public static func photolibctl() -> String? {
        let directory = DetachedProcess.ownExecutable.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        let beside = directory.map { $0.path + "/photolibctl" }
        let prefixBin = directory.map { $0.deletingLastPathComponent().path + "/bin/photolibctl" }
        return [beside, prefixBin, "/usr/bin/photolibctl", "/usr/local/bin/photolibctl"].compactMap { $0 }.first(where: PathInspection.isExecutable)
    }

    /// Starts photolibctl for request `request` and says where its output goes: the page's own
    /// log, or the journal of the transient unit that runs it outside a service's sandbox
    /// (`PageLaunch`). A unit systemd-run could not start is started directly, and the log says why.
    public static func open(request: Int64, socket: String) throws(Failure) -> String {
        guard let photolibctl = photolibctl() else { throw .notInstalled(besides: DetachedProcess.ownExecutable) }
        let paths = PagePaths(socket: socket)
        var environment: [String: String] = [:]
        for name in ["INVOCATION_ID", "XDG_RUNTIME_DIR"] + PageLaunch.desktopVariables {
            environment[name] = ProcessIdentity.environment(name)
        }
        let systemdRun = ["/usr/bin/systemd-run", "/bin/systemd-run"].first(where: PathInspection.isExecutable)
        let launch = PageLaunch.plan(photolibctl: photolibctl, request: request, socket: socket, environment: environment,
                                     systemdRun: systemdRun, unitSuffix: String(UInt32.random(in: 0 ... .max), radix: 16))
        do {
            // The page's own directory holds its log; made here when the page has never been opened.
            try PrivateFiles.makeDirectory(paths.directory)
        } catch {
            throw .cannotStart(photolibctl, error)
        }
        var note = ""
        if case .transientUnit(let unit, let systemdRun, let arguments) = launch {
            let pid: Int32
            do {
                pid = try DetachedProcess.start(systemdRun, arguments, output: paths.logFile)
            } catch {
                pid = 0
                note = " (systemd-run could not start: \(error), so photolibctl was started directly)"
            }
            if pid > 0 {
                do {
                    let ending = try DetachedProcess.waitForExit(pid, seconds: 15)
                    if ending == 0 { return "the journal of \(unit): journalctl --user -u \(unit)" }
                    note = " (systemd-run \(ending.map { "ended with status \($0)" } ?? "did not end within 15 s"), so photolibctl was started directly)"
                } catch {
                    // Whether the unit started cannot be told: a second page is worse than none, which the log names.
                    return "the journal of \(unit), if systemd-run started it (waiting for systemd-run failed: \(error))"
                }
            }
        }
        do {
            // Run by hand, or where systemd-run could not: the same command, started here.
            _ = try DetachedProcess.start(photolibctl, PageLaunch.photolibctlArguments(request: request, socket: socket), output: paths.logFile)
        } catch {
            throw .cannotStart(photolibctl, error)
        }
        return paths.logFile + note
    }
}
