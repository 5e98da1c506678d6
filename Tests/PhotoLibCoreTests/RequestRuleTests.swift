import Testing
@testable import PhotoLibCore

@Suite("Rules a request's parameters meet, and records as the rules read them")
struct RequestRuleTests {
    let viewer = AppID("org.example.Viewer")!
    let editor = AppID("org.example.Editor")!

    @Test("an admin must name the app; an app may name only its own, or none when it has one")
    func targetApp() throws {
        #expect(throws: PhotoLibError.invalidParameter(name: "app", reason: "an admin must name the app")) { try PeerRole.admin.target(nil) }
        #expect(try PeerRole.admin.target("org.example.Viewer") == viewer)
        #expect(throws: PhotoLibError.invalidAppID("not an app")) { try PeerRole.admin.target("not an app") }
        #expect(try PeerRole.app([viewer]).target(nil) == viewer)
        #expect(throws: PhotoLibError.ambiguousApp(apps: [viewer.rawValue, editor.rawValue])) { try PeerRole.app([viewer, editor]).target(nil) }
        #expect(try PeerRole.app([viewer, editor]).target("org.example.Editor") == editor)
        #expect(throws: PhotoLibError.otherAppsView(caller: viewer, target: editor)) { try PeerRole.app([viewer]).target("org.example.Editor") }
    }

    @Test("a rule grant needs both ends in order, no end of its own, and a known type")
    func ruleRequest() throws {
        let asked = try CaptureRule.requested(from: 10, to: 20, type: "live", lasting: false)
        #expect(asked.from == 10 && asked.to == 20 && asked.mediaType == .live)
        #expect(try CaptureRule.requested(from: 10, to: 20, type: nil, lasting: false).mediaType == nil)
        #expect(throws: PhotoLibError.self) { try CaptureRule.requested(from: nil, to: 20, type: nil, lasting: false) }
        do {
            _ = try CaptureRule.requested(from: 10, to: nil, type: nil, lasting: false)
            Issue.record("a rule without its end was taken")
        } catch {
            guard case .invalidParameter(let name, _) = error else { throw error }
            #expect(name == "taken-to")
        }
        #expect(throws: PhotoLibError.self) { try CaptureRule.requested(from: 10, to: 20, type: nil, lasting: true) }
        #expect(throws: PhotoLibError.self) { try CaptureRule.requested(from: 20, to: 10, type: nil, lasting: false) }
        #expect(throws: PhotoLibError.invalidParameter(name: "type", reason: "'gif' is not one of image, video, live")) {
            try CaptureRule.requested(from: 10, to: 20, type: "gif", lasting: false)
        }
    }

    @Test("a typed path is relative to the library, or absolute inside it; one outside it is none")
    func typedPaths() {
        #expect(RelativePath(typed: "Trips/a.jpg", library: "/home/ann/Pictures")?.escaped == "Trips/a.jpg")
        #expect(RelativePath(typed: "/home/ann/Pictures/Trips/a.jpg", library: "/home/ann/Pictures")?.escaped == "Trips/a.jpg")
        #expect(RelativePath(typed: "/home/ann/Pictures/Trips/a.jpg", library: "/home/ann/Pictures/")?.escaped == "Trips/a.jpg")
        #expect(RelativePath(typed: "/home/ann/Pictures", library: "/home/ann/Pictures")?.isRoot == true)
        #expect(RelativePath(typed: "/home/ann/PicturesOld/a.jpg", library: "/home/ann/Pictures") == nil)
        #expect(RelativePath(typed: "/etc/passwd", library: "/home/ann/Pictures") == nil)
        #expect(RelativePath(typed: "../a.jpg", library: "/home/ann/Pictures") == nil)
    }

    @Test("an indexed asset is located by the album tree; one whose albums are all gone is not")
    func locate() throws {
        var albums = AlbumTree()
        albums.insert(id: 2, parent: AlbumTree.rootID, name: FileName("Trips")!)
        let facts = FileFacts(device: 1, inode: 5, size: 10, modificationTime: 100, permissions: 0o644)
        let photo = MemberRecord(rowID: 7, asset: 3, album: 2, name: FileName("a.heic")!, mediaType: .image, file: facts, takenAt: 50)
        let video = MemberRecord(rowID: 8, asset: 3, album: 99, name: FileName("a.mov")!, mediaType: .video, file: facts)
        let record = AssetRecord(rowID: 3, id: AssetID.fromBits(high: 3, low: 3), mediaType: .live, members: [photo, video])
        let located = try #require(LocatedAsset(record, in: albums))
        #expect(located.members.map(\.path.escaped) == ["Trips/a.heic"], "a member in an album not in the tree is left out")
        #expect(located.members[0].takenAt == 50 && located.ancestry.contains(2))
        #expect(LocatedAsset(AssetRecord(rowID: 4, id: AssetID.fromBits(high: 4, low: 4), mediaType: .video, members: [video]), in: albums) == nil)
    }

    @Test("a request is about its access level's status; a review and a pick about read-write's")
    func statusAsked() {
        var generator = SystemRandomNumberGenerator()
        let record = AppRecord(id: viewer, uid: 1000, purpose: "", readWrite: .limited, addOnly: .authorized,
                               viewName: FileName("v")!, assetIDs: AppAssetIDs.random(using: &generator))
        #expect(record.status(askedBy: .authorization(.addOnly)) == .authorized)
        #expect(record.status(askedBy: .authorization(.readWrite)) == .limited)
        #expect(record.status(askedBy: .review) == .limited)
        #expect(record.status(askedBy: .pick(PickOptions())) == .limited)
    }

    @Test("an app on a uid of its own is let in by ACL; the owner's and root's are not; its places share its view name")
    func ownUIDAndPaths() {
        var generator = SystemRandomNumberGenerator()
        func app(uid: UInt32) -> AppRecord {
            AppRecord(id: viewer, uid: uid, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                      viewName: FileName("k3x9")!, assetIDs: AppAssetIDs.random(using: &generator))
        }
        #expect(app(uid: 4242).ownUID(ownerUID: 1000) == 4242)
        #expect(app(uid: 1000).ownUID(ownerUID: 1000) == nil)
        #expect(app(uid: 0).ownUID(ownerUID: 1000) == nil)
        #expect(app(uid: 4242).path(under: "/run/user/1000/photolibd/endpoints") == "/run/user/1000/photolibd/endpoints/k3x9")
    }
}
