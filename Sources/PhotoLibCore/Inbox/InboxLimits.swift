/// How much one app may add through its inbox (configurable in `[inbox]`).
///
/// The quota is a rolling 24 hours, counted over the files the daemon
/// accepted; a refused file costs nothing.
public struct InboxLimits: Sendable, Equatable {
    /// The largest file taken, in bytes.
    public var maxFileBytes: Int64
    /// Bytes one app may add in any 24 hours.
    public var dailyBytes: Int64
    /// Files one app may add in any 24 hours.
    public var dailyFiles: Int

    public static let standard = InboxLimits(maxFileBytes: 4 << 30, dailyBytes: 20 << 30, dailyFiles: 2_000)

    public init(maxFileBytes: Int64, dailyBytes: Int64, dailyFiles: Int) {
        self.maxFileBytes = maxFileBytes
        self.dailyBytes = dailyBytes
        self.dailyFiles = dailyFiles
    }
}

/// What an app added in the last 24 hours.
public struct InboxUsage: Sendable, Equatable {
    public var files: Int
    public var bytes: Int64

    public init(files: Int, bytes: Int64) {
        self.files = files
        self.bytes = bytes
    }
}
