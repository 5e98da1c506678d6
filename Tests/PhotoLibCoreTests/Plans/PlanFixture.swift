import PhotoLibCore

/// A small library for plan tests: albums Trips (2) and Trips/Rome (3) and Home (4), assets by row,
/// and apps, all values: a plan is decided from what the transaction read, never from a disk.
struct PlanFixture {
    var tree = AlbumTree()
    let ids: AppAssetIDs

    init() {
        tree.insert(id: 2, parent: AlbumTree.rootID, name: FileName("Trips")!)
        tree.insert(id: 3, parent: 2, name: FileName("Rome")!)
        tree.insert(id: 4, parent: AlbumTree.rootID, name: FileName("Home")!)
        var generator = SystemRandomNumberGenerator()
        ids = AppAssetIDs.random(using: &generator)
    }

    /// An asset of one photo in `album`, named after its row.
    func asset(_ row: Int64, in album: AlbumTree.ID, takenAt: Int64? = nil) -> AssetRecord {
        let facts = FileFacts(device: 1, inode: UInt64(row), size: 100 + row, modificationTime: 1_000, permissions: 0o644)
        let member = MemberRecord(rowID: row * 10, asset: row, album: album, name: FileName("p\(row).jpg")!, mediaType: .image, file: facts,
                                  takenAt: takenAt)
        return AssetRecord(rowID: row, id: AssetID.fromBits(high: UInt64(row), low: UInt64(row)), mediaType: .image, members: [member])
    }

    func app(_ readWrite: AuthorizationStatus = .limited, addOnly: AuthorizationStatus = .notDetermined,
             location: LocationPolicy = .precise) -> AppRecord {
        AppRecord(id: AppID("org.example.Viewer")!, uid: 1000, purpose: "to print", readWrite: readWrite, addOnly: addOnly,
                  viewName: FileName("v")!, location: location, assetIDs: ids)
    }

    /// What a limited app is granted.
    func grants(assets: Set<Int64> = [], albums: Set<AlbumTree.ID> = [], rules: [CaptureRule] = []) -> ViewPolicy {
        ViewPolicy(layout: .limited, selectedAssets: assets, selectedAlbums: albums, selectedRules: rules, ids: ids)
    }

    func located(_ record: AssetRecord) -> LocatedAsset { LocatedAsset(record, in: tree)! }

    func request(_ id: Int64, _ kind: RequestKind) -> AccessRequest {
        AccessRequest(id: id, app: AppID("org.example.Viewer")!, kind: kind, createdAt: 500 + id)
    }
}
