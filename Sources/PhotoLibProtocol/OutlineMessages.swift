/// `albums` with `summaries`: each album with how many photos it holds and its cover.
public struct AlbumsParams: Codable, Sendable, Equatable {
    /// Also each album's count and cover (`AlbumsResult.summaries`).
    public var summaries: Bool?
    public init(summaries: Bool? = nil) { self.summaries = summaries }
}

/// One album as the Albums view shows it.
public struct AlbumSummary: Codable, Sendable, Equatable {
    /// The album's path (escaped), as in `AlbumsResult.albums`.
    public var path: String
    /// Assets in it and in the albums below it.
    public var assets: Int
    /// Its newest asset (and below), whose thumbnail stands for it; nil for an album with none.
    public var cover: AssetInfo?

    public init(path: String, assets: Int, cover: AssetInfo?) {
        self.path = path
        self.assets = assets
        self.cover = cover
    }
}

/// `timeline`: every month that has photos, newest first, for a jump to any of them.
public struct TimelineResult: Codable, Sendable, Equatable {
    public var months: [MonthSummary]
    public init(months: [MonthSummary]) { self.months = months }
}

/// A month of the library, in the daemon's time zone: "2024-07", and how many assets were taken in it
/// (when they were taken once looked at, else when they were last written, as `takenFrom` filters).
public struct MonthSummary: Codable, Sendable, Equatable {
    public var month: String
    public var assets: Int
    public init(month: String, assets: Int) {
        self.month = month
        self.assets = assets
    }
}
