import PhotoLibCore
import PhotoLibStore
import Testing

@Suite("Store")
struct StoreTests {
    static let ids = AppAssetIDs(key: Array(repeating: 7, count: 16))!
    let app = AppID("org.example.Viewer")!

    func facts(_ inode: UInt64) -> FileFacts {
        FileFacts(device: 1, inode: inode, size: 10, modificationTime: 5, permissions: 0o644)
    }

    @Test("byte names that Swift strings would merge stay separate rows")
    func byteNames() throws {
        let store = try Store(inMemory: ())
        let names: [[UInt8]] = [[0x63, 0x61, 0x66, 0xC3, 0xA9, 0x2E, 0x6A, 0x70, 0x67], [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81, 0x2E, 0x6A, 0x70, 0x67],
                                [0x62, 0xFF, 0x2E, 0x6A, 0x70, 0x67], [0x62, 0xFE, 0x2E, 0x6A, 0x70, 0x67]]
        try store.write { tx in
            for (index, bytes) in names.enumerated() {
                _ = try tx.insertMember(album: AlbumTree.rootID, name: FileName(bytes: bytes)!, mediaType: .image,
                                        file: facts(UInt64(index + 1)))
            }
        }
        let stored = try store.read { try $0.assets(inAlbums: [AlbumTree.rootID]) }
        #expect(Set(stored.map(\.primary.name.bytes)) == Set(names))
    }

    @Test("album grants are live and cover sub-albums; single selections survive an album move")
    func visibility() throws {
        let store = try Store(inMemory: ())
        let (trips, inner, other) = try store.write { tx in
            (try tx.insertAlbum(parent: 1, name: FileName("Trips")!), 0, try tx.insertAlbum(parent: 1, name: FileName("Other")!))
        }
        let nested = try store.write { tx in try tx.insertAlbum(parent: trips, name: FileName("2024")!) }
        _ = inner
        try store.write { tx in
            try tx.insertApp(AppRecord(id: app, uid: 1000, purpose: "", readWrite: .limited, addOnly: .notDetermined, viewName: FileName("view-0000000000000000")!, assetIDs: Self.ids), createdAt: 0)
            _ = try tx.selectAlbums(app, albums: [trips])
        }
        let (later, single) = try store.write { tx in
            (try tx.asset(rowID: tx.insertMember(album: nested, name: FileName("later.jpg")!, mediaType: .image, file: facts(1)).asset)!,
             try tx.asset(rowID: tx.insertMember(album: other, name: FileName("one.jpg")!, mediaType: .image, file: facts(2)).asset)!)
        }
        _ = try store.write { try $0.selectAssets(app, rowIDs: [single.rowID]) }
        #expect(Set(try store.read { try $0.visibleAssets(limitedApp: app) }.map(\.id)) == [later.id, single.id])

        try store.write { tx in try tx.moveAlbum(other, parent: nested, name: FileName("Moved")!) }
        #expect(try store.read { try $0.selectedAssets(app) }.map(\.id) == [single.id])
    }

    @Test("deleting an asset drops it from every selection")
    func cascade() throws {
        let store = try Store(inMemory: ())
        let record = try store.write { tx in
            try tx.insertApp(AppRecord(id: app, uid: 1, purpose: "", readWrite: .limited, addOnly: .notDetermined, viewName: FileName("view-0000000000000000")!, assetIDs: Self.ids), createdAt: 0)
            let record = try tx.insertMember(album: 1, name: FileName("a.jpg")!, mediaType: .image, file: facts(9))
            _ = try tx.selectAssets(app, rowIDs: [record.asset])
            return record
        }
        try store.write { try $0.deleteMember(rowID: record.rowID) }
        #expect(try store.read { try $0.selectedAssetRowIDs(app) }.isEmpty)
        #expect(try store.read { try $0.assetCount() } == 0)
    }

    @Test("an asset lives while it has a member: its type follows its members, and a member joining another asset brings its selections")
    func members() throws {
        let store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        let other = AppID("org.example.Other")!
        let (image, video) = try store.write { tx in
            for id in [app, other] {
                try tx.insertApp(AppRecord(id: id, uid: 1, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                                           viewName: ViewName.random(using: &generator), assetIDs: Self.ids), createdAt: 0)
            }
            let image = try tx.insertMember(album: 1, name: FileName("IMG_1.HEIC")!, mediaType: .image, file: facts(1))
            let video = try tx.insertMember(album: 1, name: FileName("IMG_1.MOV")!, mediaType: .video, file: facts(2))
            _ = try tx.selectAssets(app, rowIDs: [image.asset])
            _ = try tx.selectAssets(other, rowIDs: [video.asset])
            return (image, video)
        }
        #expect(try store.read { try $0.assetCount() } == 2)
        // The video joins the photo: one live asset, with the photo's ID and both apps' selections.
        try store.write { try $0.moveMember(video.rowID, toAsset: image.asset) }
        let live = try #require(try store.read { try $0.asset(rowID: image.asset) })
        #expect(live.mediaType == .live)
        #expect(live.members.map(\.name) == [FileName("IMG_1.HEIC")!, FileName("IMG_1.MOV")!])
        #expect(try store.read { try $0.assetCount() } == 1)
        #expect(try store.read { try $0.selectedAssetRowIDs(other) } == [image.asset])
        #expect(try store.read { try $0.assets(albums: nil, mediaType: .live, nameContains: nil) }.map(\.rowID) == [image.asset])
        // The video gone: the photo stays, same ID, an image again.
        try store.write { try $0.deleteMember(rowID: video.rowID) }
        let alone = try #require(try store.read { try $0.asset(rowID: image.asset) })
        #expect(alone.id == live.id && alone.mediaType == .image && alone.members.count == 1)
        #expect(try store.read { try $0.selectedAssetRowIDs(app) } == [image.asset])
    }

    @Test("an app removed and added again continues its tokens, all old ones (the last included) below the history floor")
    func tokensOutliveRemoval() throws {
        let store = try Store(inMemory: ())
        let record = AppRecord(id: app, uid: 1, purpose: "", readWrite: .limited, addOnly: .notDetermined, viewName: FileName("view-0000000000000000")!, assetIDs: Self.ids)
        try store.write { tx in
            try tx.insertApp(record, createdAt: 0)
            for _ in 0..<3 { _ = try tx.appendEvent(app, kind: .change, retention: 100) { _ in Array("{}".utf8) } }
        }
        try store.write { try $0.deleteApp(app) }
        try store.write { try $0.insertApp(record, createdAt: 1) }
        // A client that saw token 3 of the old app is below the floor: reset.
        #expect(try store.read { try $0.tokens(app) }! == (4, 4))
        let next = try store.write { tx in try tx.appendEvent(app, kind: .change, retention: 100) { _ in Array("{}".utf8) } }
        #expect(next.token == 5)
        try store.write { try $0.deleteApp(app) }
        try store.write { try $0.insertApp(record, createdAt: 2) }
        #expect(try store.read { try $0.tokens(app) }!.last == 6)
    }

    @Test("one pending request per app and kind, numbers never reused, gone with the app")
    func requests() throws {
        let store = try Store(inMemory: ())
        let record = AppRecord(id: app, uid: 1000, purpose: "", readWrite: .notDetermined, addOnly: .notDetermined,
                               viewName: FileName("view-0000000000000000")!, assetIDs: Self.ids)
        try store.write { tx in try tx.insertApp(record, createdAt: 0) }
        let (first, made) = try store.write { tx in try tx.pendingRequest(app, kind: .authorization(.readWrite), now: 10) }
        #expect(made)
        let (joined, madeAgain) = try store.write { tx in try tx.pendingRequest(app, kind: .authorization(.readWrite), now: 20) }
        #expect(!madeAgain && joined == first, "asking again joins the pending request")
        let review = try store.write { tx in try tx.pendingRequest(app, kind: .review, now: 30).request }
        #expect(review.id > first.id)
        #expect(try store.read { try $0.requests() }.map(\.id) == [first.id, review.id])
        try store.write { tx in try tx.deleteRequest(first.id) }
        let next = try store.write { tx in try tx.pendingRequest(app, kind: .authorization(.readWrite), now: 40).request }
        #expect(next.id > review.id, "a request number is never reused")
        try store.write { tx in try tx.deleteApp(app) }
        #expect(try store.read { try $0.requestCount() } == 0)
    }

    @Test("a pick keeps its options, is dropped at start, and what it handed over is in the access log until pruned")
    func picksAndAccessLog() throws {
        let store = try Store(inMemory: ())
        let record = AppRecord(id: app, uid: 1000, purpose: "", readWrite: .notDetermined, addOnly: .notDetermined,
                               viewName: FileName("view-0000000000000000")!, assetIDs: Self.ids)
        try store.write { tx in try tx.insertApp(record, createdAt: 0) }
        let options = PickOptions(types: [.video, .live], limit: 4, ordered: true)
        let pick = try store.write { tx in try tx.pendingRequest(app, kind: .pick(options), now: 10).request }
        let review = try store.write { tx in try tx.pendingRequest(app, kind: .review, now: 11).request }
        #expect(try store.read { try $0.request(id: pick.id) }?.kind == .pick(options))
        #expect(try store.write { try $0.deletePicks() }.map(\.id) == [pick.id])
        #expect(try store.read { try $0.requests() }.map(\.id) == [review.id], "only picks go at start")

        let asset = AssetID("aaaaaaaaaaaaaaaa")!
        try store.write { tx in
            try tx.logAccess([AccessLogEntry(app: app, asset: asset, how: .pick, request: pick.id, at: 100),
                              AccessLogEntry(app: app, asset: asset, how: .pick, request: nil, at: 200)])
        }
        #expect(try store.read { try $0.accessLog(app: app) }.map(\.at) == [100, 200])
        #expect(try store.read { try $0.accessLog(since: 150) }.count == 1)
        try store.write { tx in try tx.pruneAccessLog(before: 150) }
        #expect(try store.read { try $0.accessLog() }.map(\.request) == [nil])
        try store.write { tx in try tx.deleteApp(app) }
        #expect(try store.read { try $0.accessLog() }.isEmpty, "an app's log goes with it")
    }

    @Test("a location check that found the file unreadable keeps its mode: assets --withheld names the file until a chmod")
    func unreadableCheck() throws {
        let store = try Store(inMemory: ())
        var unreadable = facts(7)
        unreadable.permissions = 0o200
        let asset = try store.write { tx in
            let file = DirectoryPlan.NewFile(name: FileName("a.jpg")!, mediaType: .image, facts: unreadable)
            return try tx.insertNewAssets(album: AlbumTree.rootID, files: [file])[0]
        }
        let member = asset.members[0].rowID
        try store.write { tx in try tx.setLocationCheck(.unreadable(unreadable), memberRowID: member) }
        #expect(try store.read { try $0.locationChecks() }[member] == .unreadable(unreadable), "the mode comes back")
        #expect(try store.read { try $0.listingKeys(ListingFilter(withheldOnly: true)) }.count == 1)
        try store.write { tx in
            var chmodded = try #require(try tx.member(rowID: member))
            chmodded.file.permissions = 0o644
            try tx.updateMember(chmodded)
        }
        #expect(try store.read { try $0.listingKeys(ListingFilter(withheldOnly: true)) }.isEmpty, "stale once its mode changed")
        let other = LocationCheck(of: facts(7), outcome: .cannotTell("exiv2 cannot read it"))
        try store.write { tx in try tx.setLocationCheck(other, memberRowID: member) }
        #expect(try store.read { try $0.locationChecks() }[member]?.permissions == nil, "any other check holds for every mode")
        #expect(try store.read { try $0.listingKeys(ListingFilter(withheldOnly: true)) }.count == 1)
    }

    @Test("a new asset is returned as stored, so neither a scan nor a batch reads it back")
    func insertAssetAsStored() throws {
        let store = try Store(inMemory: ())
        let inserted = try store.write { tx in
            let file = DirectoryPlan.NewFile(name: FileName("a.jpg")!, mediaType: .image, facts: facts(7))
            return try tx.insertNewAssets(album: AlbumTree.rootID, files: [file])[0]
        }
        #expect(try store.read { try $0.asset(rowID: inserted.rowID) } == inserted)
    }

    @Test("a member inserted into an asset makes it live when its type differs, and leaves a live asset live")
    func memberTypes() throws {
        let store = try Store(inMemory: ())
        let asset = try store.write { tx in
            let file = DirectoryPlan.NewFile(name: FileName("IMG_1.HEIC")!, mediaType: .image, facts: facts(1))
            return try tx.insertNewAssets(album: AlbumTree.rootID, files: [file])[0]
        }
        try store.write { tx in
            _ = try tx.insertMember(album: AlbumTree.rootID, name: FileName("IMG_1.MOV")!, mediaType: .video, file: facts(2),
                                    joining: asset.rowID)
        }
        #expect(try store.read { try $0.asset(rowID: asset.rowID) }?.mediaType == .live)
        try store.write { tx in
            _ = try tx.insertMember(album: AlbumTree.rootID, name: FileName("IMG_1.JPG")!, mediaType: .image, file: facts(3),
                                    joining: asset.rowID)
        }
        #expect(try store.read { try $0.asset(rowID: asset.rowID) }?.mediaType == .live)
    }

    @Test("the app state's version moves with each commit that changes an app, a selection or a rule, and with no other")
    func appStateVersion() throws {
        let store = try Store(inMemory: ())
        var version = store.appStateVersion
        func moved() -> Bool {
            defer { version = store.appStateVersion }
            return store.appStateVersion != version
        }
        let record = try store.write { tx in
            try tx.insertMember(album: AlbumTree.rootID, name: FileName("a.jpg")!, mediaType: .image, file: facts(1))
        }
        #expect(!moved(), "a library change")
        try store.write { tx in
            try tx.insertApp(AppRecord(id: app, uid: 1, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                                       viewName: FileName("view-0000000000000000")!, assetIDs: Self.ids), createdAt: 0)
        }
        #expect(moved(), "an app added")
        _ = try store.write { try $0.selectAssets(app, rowIDs: [record.asset]) }
        #expect(moved(), "a selection")
        _ = try store.write { try $0.selectAlbums(app, albums: [AlbumTree.rootID]) }
        #expect(moved(), "an album selected")
        _ = try? store.write { tx -> Void in
            _ = try tx.selectAssets(app, rowIDs: [record.asset])
            throw CancellationError()
        }
        #expect(!moved(), "rolled back")
        _ = try store.write { try $0.deselectAssets(app, rowIDs: [record.asset]) }
        #expect(moved(), "a photo deselected")
        for _ in 0..<70 { _ = try store.write { try $0.appendEvent(app, kind: .change, retention: 2, body: { _ in Array("{}".utf8) }) } }
        #expect(!moved(), "events the app is sent (its log's tokens and floor)")
        _ = try store.write { try $0.setLocation(app, .none) }
        #expect(moved(), "its location setting")
        try store.write { tx in _ = try tx.insertMember(album: AlbumTree.rootID, name: FileName("b.jpg")!, mediaType: .image, file: facts(2)) }
        #expect(!moved(), "another library change")
        try store.write { try $0.deleteMember(rowID: record.rowID) }
        #expect(!moved(), "a selected photo deleted: its row ID, never reused, matches nothing in a kept selection")
    }
}
