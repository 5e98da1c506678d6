import PhotoLibCore
import Testing

/// The Live Photo rules, on fakes: which files pair, which asset keeps its ID,
/// and which entries a view holds for a pair.
@Suite("Live Photos")
struct LivePhotoRuleTests {
    func member(_ row: Int64, asset: Int64, _ name: String, _ type: MediaType) -> LivePairing.Member {
        LivePairing.Member(rowID: row, asset: asset, name: FileName(name)!, mediaType: type)
    }

    @Test("a video added later joins its photo, which keeps its ID")
    func videoJoinsPhoto() {
        let members = [member(1, asset: 1, "IMG_1.HEIC", .image), member(2, asset: 5, "IMG_1.MOV", .video)]
        #expect(LivePairing.plan(members, memberCounts: [1: 1, 5: 1]) == [.join(member: 2, asset: 1)])
    }

    @Test("a photo added later joins the video that was there first: the older asset keeps its ID and selections")
    func photoJoinsOlderVideo() {
        let members = [member(9, asset: 9, "IMG_1.heic", .image), member(2, asset: 2, "IMG_1.MOV", .video)]
        #expect(LivePairing.plan(members, memberCounts: [9: 1, 2: 1]) == [.join(member: 9, asset: 2)])
    }

    @Test("a pair already grouped needs nothing")
    func alreadyPaired() {
        let members = [member(1, asset: 1, "IMG_1.HEIC", .image), member(2, asset: 1, "IMG_1.MOV", .video)]
        #expect(LivePairing.plan(members, memberCounts: [1: 2]).isEmpty)
    }

    @Test("a video renamed away from its photo leaves for an asset of its own; the photo keeps the ID")
    func renamedVideoSplits() {
        let members = [member(1, asset: 1, "IMG_1.HEIC", .image), member(2, asset: 1, "clip.mov", .video)]
        #expect(LivePairing.plan(members, memberCounts: [1: 2]) == [.split(member: 2)])
    }

    @Test("a video whose photo moved to another album splits there; the photo keeps the ID where it went")
    func photoMovedAway() {
        #expect(LivePairing.plan([member(2, asset: 1, "IMG_1.MOV", .video)], memberCounts: [1: 2]) == [.split(member: 2)])
        #expect(LivePairing.plan([member(1, asset: 1, "IMG_1.HEIC", .image)], memberCounts: [1: 2]).isEmpty)
    }

    @Test("a lone member keeps its asset, whatever it is: a photo whose video is gone, a video whose photo is gone")
    func loneMembers() {
        #expect(LivePairing.plan([member(1, asset: 1, "IMG_1.HEIC", .image)], memberCounts: [1: 1]).isEmpty)
        #expect(LivePairing.plan([member(2, asset: 1, "IMG_1.MOV", .video)], memberCounts: [1: 1]).isEmpty)
    }

    @Test("ambiguous stems pair nothing: two images, or two videos, of one stem")
    func ambiguous() {
        let twoImages = [member(1, asset: 1, "IMG_1.HEIC", .image), member(2, asset: 2, "IMG_1.JPG", .image),
                         member(3, asset: 3, "IMG_1.MOV", .video)]
        #expect(LivePairing.plan(twoImages, memberCounts: [1: 1, 2: 1, 3: 1]).isEmpty)
        // A pair that became ambiguous breaks: the video goes its own way.
        let third = [member(1, asset: 1, "IMG_1.HEIC", .image), member(2, asset: 1, "IMG_1.MOV", .video),
                     member(3, asset: 3, "IMG_1.MP4", .video)]
        #expect(LivePairing.plan(third, memberCounts: [1: 2, 3: 1]) == [.split(member: 2)])
    }

    @Test("stems are compared byte for byte; a stem with a dot is its own; hidden names never pair")
    func stems() {
        #expect(FileName("IMG_1.HEIC")!.stem == Array("IMG_1".utf8))
        #expect(FileName("a.b.jpg")!.stem == Array("a.b".utf8))
        let members = [member(1, asset: 1, "img_1.heic", .image), member(2, asset: 2, "IMG_1.MOV", .video),
                       member(3, asset: 3, "a.b.jpg", .image), member(4, asset: 4, "a.mov", .video),
                       member(5, asset: 5, ".x.jpg", .image), member(6, asset: 6, ".x.mov", .video)]
        #expect(LivePairing.plan(members, memberCounts: [:]).isEmpty)
    }

    @Test("new files alone in their stems cannot change an album's pairs; one that shares a stem, new or known, may")
    func whenPairingIsNeeded() {
        func names(_ list: String...) -> [FileName] { list.map { FileName($0)! } }
        #expect(!LivePairing.mayGroup(newNames: names("IMG_1.HEIC", "IMG_2.HEIC", "img_1.mov"), besides: names("IMG_3.MOV")),
                "stems compared byte for byte, as pairing compares them")
        #expect(LivePairing.mayGroup(newNames: names("IMG_1.HEIC", "IMG_1.MOV"), besides: []), "a pair arriving together")
        #expect(LivePairing.mayGroup(newNames: names("IMG_1.MOV"), besides: names("IMG_1.HEIC")), "a video joining its photo")
        #expect(LivePairing.mayGroup(newNames: names("IMG_1.JPG"), besides: names("IMG_1.HEIC", "IMG_1.MOV")),
                "a third file makes a pair ambiguous: it must split")
        #expect(!LivePairing.mayGroup(newNames: [FileName](), besides: names("IMG_1.HEIC", "IMG_1.MOV")))
    }

    @Test("a scan's plan asks for pairing when a new file shares a stem or a file is gone, not for an album of lone new files")
    func planAsksForPairing() {
        let facts = FileFacts(device: 1, inode: 2, size: 3, modificationTime: 4, permissions: 0o644)
        func listing(_ names: String...) -> Lookup<[DirectoryPlan.Entry]> {
            .found(names.map { .init(name: FileName($0)!, kind: .file(.found(FileObservation(kind: .regular, facts: facts, owner: 1000, linkCount: 1)))) })
        }
        func plan(_ listed: Lookup<[DirectoryPlan.Entry]>, known: [String]) -> DirectoryPlan {
            DirectoryPlan.plan(listing: listed, knownFiles: Dictionary(uniqueKeysWithValues: known.enumerated().map {
                (FileName($0.element)!, IndexedFile(rowID: Int64($0.offset + 1), file: facts))
            }), knownAlbums: [:], policy: .standard, daemonUID: 1000)
        }
        #expect(!plan(listing("IMG_1.HEIC", "IMG_2.HEIC", "IMG_3.MOV"), known: []).mayChangePairs, "a first start's album")
        #expect(!plan(listing("IMG_1.HEIC", "IMG_2.HEIC"), known: ["IMG_1.HEIC"]).mayChangePairs)
        #expect(plan(listing("IMG_1.HEIC", "IMG_1.MOV"), known: ["IMG_1.HEIC"]).mayChangePairs, "a video arrived while down")
        #expect(plan(listing("IMG_1.HEIC"), known: ["IMG_1.HEIC", "IMG_1.MOV"]).mayChangePairs, "a video gone while down")
        #expect(!plan(listing("IMG_1.HEIC", "IMG_1.MOV"), known: ["IMG_1.HEIC", "IMG_1.MOV"]).mayChangePairs, "nothing new")
    }

    @Test("an asset's type follows its members")
    func types() {
        #expect(MediaType.ofAsset(members: [.image, .video]) == .live)
        #expect(MediaType.ofAsset(members: [.video]) == .video)
        #expect(MediaType.ofAsset(members: [.image]) == .image)
    }

    // MARK: The view policy

    let id = AssetID("0123456789abcdef")!

    func live(image refusal: LinkRefusal? = nil, ancestry: [AlbumTree.ID] = [1, 2]) -> LocatedAsset {
        let facts = FileFacts(device: 1, inode: 10, size: 100, modificationTime: 5, permissions: 0o644)
        var video = facts
        video.inode = 11
        video.size = 300
        return LocatedAsset(rowID: 4, id: id, mediaType: .live, members: [
            LocatedMember(rowID: 7, path: RelativePath(escaped: "Trips/IMG_1.HEIC")!, mediaType: .image, file: facts, refusal: refusal),
            LocatedMember(rowID: 8, path: RelativePath(escaped: "Trips/IMG_1.MOV")!, mediaType: .video, file: video),
        ], ancestry: ancestry)
    }

    @Test("a selected Live Photo has one entry per member in a limited view, named by the asset ID; one asset in events")
    func limitedLiveEntries() {
        let policy = ViewPolicy(layout: .limited, selectedAssets: [4])
        #expect(policy.entries(live()).map(\.path.escaped) == ["0123456789abcdef.heic", "0123456789abcdef.mov"])
        let shown = policy.viewAsset(live())
        #expect(shown?.mediaType == "live" && shown?.entry == "0123456789abcdef.heic")
        #expect(shown?.members?.map(\.entry) == ["0123456789abcdef.heic", "0123456789abcdef.mov"])
        #expect(shown?.members?.map(\.size) == [100, 300])
    }

    @Test("an authorized view holds each member at its library path; an unselected asset has no entry but known placements")
    func fullAndUnselected() {
        #expect(ViewPolicy(layout: .full).entries(live()).map(\.path.escaped) == ["Trips/IMG_1.HEIC", "Trips/IMG_1.MOV"])
        let unselected = ViewPolicy(layout: .limited, selectedAssets: [99])
        #expect(unselected.entries(live()).isEmpty && unselected.viewAsset(live()) == nil)
        #expect(unselected.placements(live()).count == 2)
        #expect(ViewPolicy(layout: .limited, selectedAlbums: [2]).entries(live()).count == 2)
        #expect(ViewPolicy(layout: .empty).entries(live()).isEmpty)
    }

    @Test("a refused member has no entry; the asset's other member still does, and the asset shows as what is left")
    func refusedMember() {
        let policy = ViewPolicy(layout: .limited, selectedAssets: [4])
        let asset = live(image: .ownedByAnotherUser)
        #expect(policy.entries(asset).map(\.path.escaped) == ["0123456789abcdef.mov"])
        #expect(policy.viewAsset(asset)?.mediaType == "video" && policy.viewAsset(asset)?.members == nil)
    }
}
