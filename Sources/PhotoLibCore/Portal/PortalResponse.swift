/// How a file-chooser call ended, and the response code the portal frontend
/// passes to the app for it (`org.freedesktop.portal.Request::Response`:
/// 0 the files were chosen, 1 the person cancelled, 2 it ended some other way).
public enum PortalEnding: Sendable, Equatable {
    /// The person chose; the app gets these many files.
    case picked(files: Int)
    /// The person pressed Cancel on the sheet.
    case cancelled
    /// The page showing the sheet was closed without an answer.
    case pageClosed
    /// Nobody answered within the sheet's time.
    case timedOut(seconds: Int)
    /// The app closed the dialog itself (the frontend's `Close`).
    case closedByApp
    /// photolibd is not running, so no sheet could be shown.
    case daemonNotRunning(socket: String)
    /// Anything else that stopped the pick, in words.
    case failed(String)

    /// The code the app hears.
    public var response: UInt32 {
        switch self {
        case .picked: 0
        case .cancelled: 1
        case .pageClosed, .timedOut, .closedByApp, .daemonNotRunning, .failed: 2
        }
    }

    /// The log line's end: what happened, and what the person can do.
    public var described: String {
        switch self {
        case .picked(let files): "the person chose \(files == 1 ? "1 file" : "\(files) files")"
        case .cancelled: "the person cancelled"
        case .pageClosed: "the page showing the sheet was closed without an answer"
        case .timedOut(let seconds): "nobody answered within \(seconds) s (the portal's --sheet-timeout); the pick was withdrawn"
        case .closedByApp: "the app closed the dialog; the pick was withdrawn"
        case .daemonNotRunning(let socket):
            "photolibd is not running (no socket at \(socket)); start it ('systemctl --user start photolibd.socket') and ask again"
        case .failed(let why): why
        }
    }
}
