import PhotoLibCore
import PhotoLibStore

extension LibraryIndex {
    /// Finds what a person named in the index: each photo by its ID, else by its path; each album by its path.
    func resolve(_ named: NamedItems) throws -> SelectionEdit {
        var edit = SelectionEdit(assets: [], albums: [])
        try store.read { tx in
            for asset in named.assets {
                if let id = asset.id, let record = try tx.asset(id: id) {
                    edit.assets.append(record)
                    continue
                }
                guard let path = asset.path, let name = path.lastComponent,
                      let album = albums.album(at: path.parent ?? .root),
                      let record = try tx.asset(album: album, name: name) else {
                    throw asset.notFound
                }
                edit.assets.append(record)
            }
        }
        for album in named.albums {
            guard let id = albums.album(at: album.path) else { throw PhotoLibError.unknownAlbum(path: album.typed) }
            edit.albums.append(id)
        }
        return edit
    }

    /// Where every asset an edit names is now: those named one by one, and those in its albums and
    /// every album below them; an asset on its way out (no album of its left in the tree) is left out.
    func located(_ edit: SelectionEdit) throws -> [LocatedAsset] {
        let inAlbums = try store.read { tx in try tx.assets(inAlbums: edit.albums.flatMap { albums.subtree(of: $0) }) }
        return (edit.assets + inAlbums).compactMap(locate)
    }

    /// Those of `assets` whose originals are refused now (`LinkRefusal`), read again: a named record is
    /// from before the edit, and a refusal is learned while linking.
    func refused(_ assets: [AssetRecord]) throws -> [AssetRecord] {
        try store.read { tx in try assets.compactMap { try tx.asset(rowID: $0.rowID) } }.filter { $0.refusal != nil }
    }
}
