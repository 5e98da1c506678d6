public import Logging

/// Writes log lines to stderr; under systemd (stderr is `JOURNAL_STREAM`) each line
/// starts with the sd-daemon priority prefix (`<3>`) so journald files it
/// at the right level.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    /// What starts each line off the journal: `photolibd[PID]: `.
    private let prefix: String
    private let journal: Bool

    public init(label: String) {
        prefix = "\(label)[\(ProcessIdentity.processID)]: "
        journal = ProcessIdentity.stderrIsJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // One write(2) per line (a short write continues): lines from different threads never interleave.
        StandardError.write(journal ? "<\(Self.priority(event.level))>\(event.message)\n" : "\(prefix)\(event.level): \(event.message)\n")
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
