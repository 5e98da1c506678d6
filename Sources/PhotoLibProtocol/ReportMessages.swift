/// `report` parameters (admin): the access report, optionally one app's, since a time.
public struct ReportParams: Codable, Sendable, Equatable {
    public var app: String?
    /// Seconds since the epoch; default: everything kept.
    public var since: Int64?

    public init(app: String? = nil, since: Int64? = nil) {
        self.app = app
        self.since = since
    }
}

/// The access report: what apps opened through their views and were handed by picks, oldest first.
public struct ReportResult: Codable, Sendable, Equatable {
    /// How long lines are kept, in seconds.
    public var retention: Int64
    /// False when the views are not watched for opens (`[report] watch_opens = false`).
    public var watchingOpens: Bool
    public var entries: [ReportEntry]

    public init(retention: Int64, watchingOpens: Bool, entries: [ReportEntry]) {
        self.retention = retention
        self.watchingOpens = watchingOpens
        self.entries = entries
    }
}

/// One line of the report.
public struct ReportEntry: Codable, Sendable, Equatable {
    public var app: String
    public var asset: String
    /// The asset's path in the library (escaped), when it is still there.
    public var path: String?
    /// `open` (through the app's view; opens of one asset within a minute are one line) or `pick`.
    public var how: String
    /// Seconds since the epoch.
    public var at: Int64
    /// For a pick: its request number.
    public var request: Int64?

    public init(app: String, asset: String, path: String?, how: String, at: Int64, request: Int64?) {
        self.app = app
        self.asset = asset
        self.path = path
        self.how = how
        self.at = at
        self.request = request
    }
}
