/// An app opened an entry of its view (SPEC §9's access report): which asset
/// that is, and whether the open is worth a new line in the report.
public enum ViewOpen {
    /// What an opened entry names.
    public enum Reference: Sendable, Equatable {
        /// A limited view's entry is named by its asset's ID (`ViewEntryNaming`).
        case asset(AssetID)
        /// A full view mirrors the library: the entry's path is the original's.
        case libraryPath(RelativePath)
    }

    /// The asset an entry at `path` (relative to the view) stands for, or nil
    /// for what no asset is (a hidden temporary link being placed, say).
    public static func reference(layout: ViewLayout, path: RelativePath) -> Reference? {
        guard let name = path.lastComponent, name.bytes.first != 0x2E else { return nil }
        switch layout {
        case .empty:
            return nil
        case .limited:
            let stem = name.bytes.prefix { $0 != 0x2E }
            return AssetID(String(decoding: stem, as: UTF8.self)).map(Reference.asset)
        case .full:
            return .libraryPath(path)
        }
    }

    /// Opens of one asset by one app closer together than this make one line:
    /// a viewer reading a photo opens it several times (thumbnail, full size).
    public static let coalescingSeconds: Int64 = 60

    /// Whether an open at `at` makes a new line, given the last line written for
    /// the same app and asset (nil: none since the daemon started).
    public static func isNewLine(at: Int64, lastLine: Int64?) -> Bool {
        guard let lastLine else { return true }
        return at - lastLine >= coalescingSeconds || at < lastLine
    }
}

/// The report's coalescing of opens (`ViewOpen.isNewLine`), by app and asset:
/// which opens make a new line, remembering each pair's last line for as long
/// as it can matter.
public struct OpenCoalescer: Sendable {
    private struct Key: Hashable, Sendable {
        let app: AppID
        let asset: AssetID
    }

    private var lastLines: [Key: Int64] = [:]

    public init() {}

    /// Whether this open makes a new line; if so, it is the pair's last line from now on.
    public mutating func admit(app: AppID, asset: AssetID, at: Int64) -> Bool {
        let key = Key(app: app, asset: asset)
        guard ViewOpen.isNewLine(at: at, lastLine: lastLines[key]) else { return false }
        lastLines[key] = at
        return true
    }

    /// Forgets the lines too old to coalesce with an open at `now` or later.
    public mutating func prune(now: Int64) {
        lastLines = lastLines.filter { now - $0.value < ViewOpen.coalescingSeconds }
    }

    public var count: Int { lastLines.count }
}
