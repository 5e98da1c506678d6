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

    /// Starts photolibctl for request `request` and returns the log its output goes to (the page's own).
    public static func open(request: Int64, socket: String) throws(Failure) -> String {
        guard let photolibctl = photolibctl() else { throw .notInstalled(besides: DetachedProcess.ownExecutable) }
        let paths = PagePaths(socket: socket)
        do {
            // The page's own directory holds its log; made here when the page has never been opened.
            try PrivateFiles.makeDirectory(paths.directory)
            _ = try DetachedProcess.start(photolibctl, ["ui", "--request", String(request), "--socket", socket], output: paths.logFile)
        } catch {
            throw .cannotStart(photolibctl, error)
        }
        return paths.logFile
    }
}
