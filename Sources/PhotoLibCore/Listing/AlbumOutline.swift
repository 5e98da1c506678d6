/// The Albums view's figures: each album's count and cover, from what its own directory holds.
///
/// An album counts its assets and those of every album below it, and its cover is the newest
/// of them all, as a photos app shows a folder of folders.
public enum AlbumOutline {
    /// What one album's directory itself holds.
    public struct Direct: Sendable, Equatable {
        public var assets: Int
        /// Its newest asset's row and modification time.
        public var newest: (asset: Int64, mtime: Int64)?

        public init(assets: Int, newest: (asset: Int64, mtime: Int64)?) {
            self.assets = assets
            self.newest = newest
        }

        public static func == (a: Direct, b: Direct) -> Bool {
            a.assets == b.assets && a.newest?.asset == b.newest?.asset && a.newest?.mtime == b.newest?.mtime
        }
    }

    /// An album's figures, itself and below.
    public struct Summary: Sendable, Equatable {
        public var assets: Int
        /// The row of the asset whose thumbnail stands for it.
        public var cover: Int64?
    }

    /// Every album's summary but the library's own.
    public static func summarize(_ tree: AlbumTree, direct: [AlbumTree.ID: Direct]) -> [AlbumTree.ID: Summary] {
        var summaries: [AlbumTree.ID: Summary] = [:]
        for album in tree.allIDs where album != AlbumTree.rootID {
            var assets = 0
            var newest: (asset: Int64, mtime: Int64)?
            for member in tree.subtree(of: album) {
                guard let own = direct[member] else { continue }
                assets += own.assets
                if let candidate = own.newest,
                   newest == nil || candidate.mtime > newest!.mtime || (candidate.mtime == newest!.mtime && candidate.asset > newest!.asset) {
                    newest = candidate
                }
            }
            summaries[album] = Summary(assets: assets, cover: newest?.asset)
        }
        return summaries
    }
}
