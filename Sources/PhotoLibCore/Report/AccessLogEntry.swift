/// One time an app was handed an asset (schema v11), for the access report.
public struct AccessLogEntry: Sendable, Equatable {
    /// How the app came by the asset.
    public enum How: String, Sendable {
        /// It opened the entry through its view.
        case open
        /// The person chose it for a one-time pick.
        case pick
    }

    public var app: AppID
    public var asset: AssetID
    public var how: How
    /// The pick's request number, when it came from one.
    public var request: Int64?
    /// Seconds since the Unix epoch.
    public var at: Int64

    public init(app: AppID, asset: AssetID, how: How, request: Int64?, at: Int64) {
        self.app = app
        self.asset = asset
        self.how = how
        self.request = request
        self.at = at
    }
}
