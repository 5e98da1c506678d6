import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

extension RequestRouter {
    /// `albums`: every album's path, bytewise in order; with `summaries`, each one's count and cover too.
    func albums(_ p: AlbumsParams) throws -> AlbumsResult {
        try store.read { tx in
            let tree = try tx.albumTree()
            let albums = tree.allIDs.compactMap { id in tree.path(of: id).map { (id: id, path: $0) } }.filter { !$0.path.isRoot }
                .sorted { $0.path.escaped.utf8.lexicographicallyPrecedes($1.path.escaped.utf8) }
            guard p.summaries == true else { return AlbumsResult(albums: albums.map(\.path.escaped)) }
            let outline = AlbumOutline.summarize(tree, direct: try tx.albumContents())
            let covers = Set(outline.values.compactMap(\.cover))
            let records = Dictionary(uniqueKeysWithValues: try tx.assets(rowIDs: Array(covers)).map { ($0.rowID, $0) })
            return AlbumsResult(albums: albums.map(\.path.escaped), summaries: albums.map { album in
                let summary = outline[album.id]
                return AlbumSummary(path: album.path.escaped, assets: summary?.assets ?? 0,
                                    cover: summary?.cover.flatMap { records[$0] }.map { AssetInfo($0, albums: tree) })
            })
        }
    }
}
