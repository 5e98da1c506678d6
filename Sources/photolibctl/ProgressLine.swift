import Glibc
import PhotoLibProtocol
import PhotoLibSystem

/// A line on stderr that shows how far a long request is, as the daemon tells it (`progress`
/// events on the request's connection), redrawn in place, as apt and rsync do.
///
/// Only on a terminal and without `--json`: a script or a pipe gets the result alone.
struct ProgressLine {
    private let enabled: Bool

    init(json: Bool) {
        enabled = !json && isatty(STDERR_FILENO) == 1
    }

    /// What to hand `call(progress:)`: nil when nothing is shown.
    var handler: ((ProgressEvent) -> Void)? {
        guard enabled else { return nil }
        return { event in Self.draw(Self.describe(event)) }
    }

    /// Clears the line, before the result is printed (or an error).
    func clear() {
        if enabled { Self.draw("") }
    }

    /// "Making the view: 12345 of 100000 files (12%)…"
    static func describe(_ event: ProgressEvent) -> String {
        let what = switch event.stage {
        case "scan": "Scanning the library"
        case "view": "Making the view"
        default: "Working"
        }
        let percent = event.total > 0 ? " (\(event.done * 100 / event.total)%)" : ""
        return "\(what): \(event.done) of \(Output.count(Int(event.total), "file"))\(percent)…"
    }

    private static func draw(_ text: String) {
        StandardError.write("\r\u{1B}[K\(text)")
    }
}
