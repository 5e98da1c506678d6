import Glibc
import PhotoLibSystem
public import Logging

/// Writes log lines to stderr; under systemd (stderr is `JOURNAL_STREAM`) each line
/// starts with the sd-daemon priority prefix (`<3>`) so journald files it
/// at the right level.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let journal: Bool

    public init(label: String) {
        self.label = label
        journal = ProcessIdentity.stderrIsJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let text: String
        if journal {
            text = "<\(Self.priority(event.level))>\(event.message)\n"
        } else {
            text = "\(label)[\(getpid())]: \(event.level): \(event.message)\n"
        }
        // One write(2) per line: lines from different threads never interleave.
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
