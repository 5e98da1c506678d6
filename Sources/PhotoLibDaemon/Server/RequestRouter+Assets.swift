import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

extension RequestRouter {
    /// `assets`: one page of the library's listing, in the order and with the filters asked for.
    func assets(_ p: AssetsParams) throws -> AssetsResult {
        let type = try p.type.map(MediaType.parse)
        let page = try ListingPage(order: p.order, offset: p.offset, limit: p.limit)
        let generation = store.generation
        return try store.read { tx in
            let albums = try tx.albumTree()
            var albumFilter: [AlbumTree.ID]?
            if let text = p.album {
                guard let path = RelativePath(escaped: text), let album = albums.album(at: path) else {
                    throw PhotoLibError.unknownAlbum(path: text)
                }
                albumFilter = albums.subtree(of: album)
            }
            let search = p.search.flatMap(EscapedName.unescape)
            let filter = ListingFilter(albums: albumFilter, mediaType: type, nameContains: search,
                                       orInAlbums: search.map { AlbumSearch.matching($0, in: albums) },
                                       // Places are the owner's: this listing is for the owner alone (`assets` is admin-only).
                                       orInPlaces: try search.map { try tx.places(matching: String(decoding: $0, as: UTF8.self)) },
                                       takenFrom: p.takenFrom, takenTo: p.takenTo,
                                       refusedOnly: p.refused == true, withheldOnly: p.withheld == true)
            // Only the keys of every asset are read (and sorted); whole records only for the page asked for.
            let listing = try listings.keys(for: filter, generation: generation) ?? {
                let keys = try tx.listingKeys(filter)
                let entry = ListingCache.Entry(generation: generation, filter: filter, rowIDs: keys.map(\.rowID),
                                               keys: ListingSortKeys(keys, albums: albums))
                listings.keep(entry)
                return entry
            }()
            let window = page.window(of: listing.keys).map { listing.rowIDs[$0] }
            let records = try tx.assets(rowIDs: window)
            // Why a file is withheld from apps without location, when it is (its check, for its content now).
            let checks = try tx.locationChecks(members: records.flatMap { $0.members.map(\.rowID) })
            let places = try tx.placeDescriptions(assets: records.map(\.rowID))
            var ids: AppAssetIDs?
            if let text = p.app {
                let app = try appID(text)
                guard let record = try tx.app(app) else { throw PhotoLibError.unknownApp(app) }
                ids = record.assetIDs
            }
            return AssetsResult(assets: records.map { record in
                var info = AssetInfo(record, albums: albums)
                info.withheld = record.withheldReason(checks: checks)
                info.place = places[record.rowID]
                info.appID = ids?.id(for: record.id).rawValue
                return info
            }, total: listing.rowIDs.count)
        }
    }
}
