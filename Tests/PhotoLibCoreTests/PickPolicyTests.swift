import PhotoLibCore
import Testing

/// The one-time pick's rules (PickPolicy, PickOptions, DescriptorFraming's plan), on fakes.
@Suite("Pick rules")
struct PickPolicyTests {
    func member(_ path: String, _ type: MediaType, refusal: LinkRefusal? = nil) -> LocatedMember {
        LocatedMember(rowID: Int64(path.count), path: RelativePath(escaped: path)!, mediaType: type,
                      file: FileFacts(device: 1, inode: UInt64(path.count), size: 10, modificationTime: 0, permissions: 0o644), refusal: refusal)
    }

    func asset(_ id: String, _ type: MediaType, _ members: [LocatedMember]) -> LocatedAsset {
        LocatedAsset(rowID: 1, id: AssetID(id)!, mediaType: type, members: members, ancestry: [])
    }

    var photo: LocatedAsset { asset("aaaaaaaaaaaaaaaa", .image, [member("a.jpg", .image)]) }
    var video: LocatedAsset { asset("bbbbbbbbbbbbbbbb", .video, [member("b.mp4", .video)]) }
    var live: LocatedAsset { asset("cccccccccccccccc", .live, [member("IMG_1.HEIC", .image), member("IMG_1.MOV", .video)]) }

    @Test("the person's order is kept; a Live Photo is its two files when the app asked for live, its photo alone when only for image")
    func deliveries() throws {
        let all = PickOptions(types: Set(MediaType.allCases), limit: 0, ordered: true)
        let delivered = try PickPolicy.deliveries(chosen: [live, video, photo], options: all)
        #expect(delivered.map(\.asset.id.rawValue) == ["cccccccccccccccc", "bbbbbbbbbbbbbbbb", "aaaaaaaaaaaaaaaa"])
        #expect(delivered[0].members.map(\.path.escaped) == ["IMG_1.HEIC", "IMG_1.MOV"])
        let stills = try PickPolicy.deliveries(chosen: [live], options: PickOptions(types: [.image], limit: 1))
        #expect(stills[0].members.map(\.path.escaped) == ["IMG_1.HEIC"])
    }

    @Test("nothing, too many, twice, a kind not asked for, or a file no app may have: refused with the reason, nothing delivered")
    func refusals() throws {
        let one = PickOptions(types: [.image], limit: 1)
        #expect(throws: PhotoLibError.pick(.nothingChosen)) { try PickPolicy.deliveries(chosen: [], options: one) }
        #expect(throws: PhotoLibError.pick(.overLimit(chosen: 2, limit: 1))) {
            try PickPolicy.deliveries(chosen: [photo, live], options: one)
        }
        #expect(throws: PhotoLibError.pick(.chosenTwice(asset: "aaaaaaaaaaaaaaaa"))) {
            try PickPolicy.deliveries(chosen: [photo, photo], options: PickOptions(types: [.image], limit: 0))
        }
        #expect(throws: PhotoLibError.pick(.typeNotAsked(asset: "bbbbbbbbbbbbbbbb", type: .video, asked: ["image"]))) {
            try PickPolicy.deliveries(chosen: [video], options: one)
        }
        #expect(throws: PhotoLibError.pick(.typeNotAsked(asset: "cccccccccccccccc", type: .live, asked: ["video"]))) {
            try PickPolicy.deliveries(chosen: [live], options: PickOptions(types: [.video], limit: 1))
        }
        let rootOwned = asset("dddddddddddddddd", .image, [member("root.jpg", .image, refusal: .ownedByAnotherUser)])
        #expect(throws: PhotoLibError.pick(.refused(asset: "dddddddddddddddd", path: "root.jpg", refusal: .ownedByAnotherUser))) {
            try PickPolicy.deliveries(chosen: [rootOwned], options: one)
        }
        // A file refused only as a hardlink (too many links) is the owner's and may be handed over.
        let manyLinks = asset("eeeeeeeeeeeeeeee", .image, [member("e.jpg", .image, refusal: .tooManyLinks)])
        #expect(try PickPolicy.deliveries(chosen: [manyLinks], options: one).count == 1)
        #expect(PhotoLibError.pick(.overLimit(chosen: 2, limit: 1)).message.contains("choose fewer"))
    }

    @Test("an app on the owner's uid gets private copies: a read-only descriptor can be opened again through /proc for writing")
    func copiesForTheOwnersUID() {
        #expect(PickPolicy.sharesOriginal(peerUID: 4261, ownerUID: 1000))
        #expect(!PickPolicy.sharesOriginal(peerUID: 1000, ownerUID: 1000))
        #expect(!PickPolicy.sharesOriginal(peerUID: 0, ownerUID: 1000))
    }

    @Test("options: defaults, checks, and the stored form read back")
    func options() throws {
        let defaults = try PickOptions.parse(types: nil, limit: nil, ordered: nil)
        #expect(defaults.types == Set(MediaType.allCases) && defaults.limit == 1 && !defaults.ordered)
        #expect(throws: PhotoLibError.self) { try PickOptions.parse(types: ["sound"], limit: 1, ordered: nil) }
        #expect(throws: PhotoLibError.self) { try PickOptions.parse(types: [], limit: 1, ordered: nil) }
        #expect(throws: PhotoLibError.self) { try PickOptions.parse(types: nil, limit: -1, ordered: nil) }
        #expect(throws: PhotoLibError.self) { try PickOptions.parse(types: nil, limit: PickOptions.maximumAssets + 1, ordered: nil) }
        let options = PickOptions(types: [.video, .image], limit: 0, ordered: true)
        #expect(PickOptions(storageText: options.storageText) == options)
        #expect(options.effectiveLimit == PickOptions.maximumAssets)
        #expect(options.described == "any number of photos or videos, in order")
        #expect(PickOptions(types: [.image], limit: 1).described == "one photo")
    }

    @Test("a pick's answer is assets or cancel; other kinds do not take it")
    func answers() throws {
        let pick = RequestKind.pick(PickOptions())
        #expect(try RequestPolicy.effect(of: .pick, to: pick, namesItems: true) == RequestPolicy.Effect(authorize: nil, selects: false))
        #expect(try RequestPolicy.effect(of: .cancel, to: pick, namesItems: false) == RequestPolicy.Effect(authorize: nil, selects: false))
        #expect(throws: PhotoLibError.pick(.nothingChosen)) { try RequestPolicy.effect(of: .pick, to: pick, namesItems: false) }
        #expect(throws: PhotoLibError.self) { try RequestPolicy.effect(of: .limited, to: pick, namesItems: true) }
        #expect(throws: PhotoLibError.self) { try RequestPolicy.effect(of: .pick, to: .review, namesItems: true) }
        #expect(try RequestPolicy.ask(pick, app: AppID("org.example.A")!, readWrite: .denied, addOnly: .denied) == .pending,
                "a pick needs no authorization: the person's choice is the permission")
    }
}
