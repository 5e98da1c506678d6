import PhotoLibCore
import Testing

@Suite("Which names are assets")
struct AssetNamePolicyTests {
    let policy = AssetNamePolicy.standard

    @Test("photo and video extensions count, case-insensitively", arguments: [
        ("IMG_1.JPG", MediaType.image), ("a.heic", .image), ("b.Png", .image), ("clip.MOV", .video), ("c.mp4", .video),
    ])
    func mediaTypes(name: String, type: MediaType) {
        #expect(policy.mediaType(of: FileName(name)!) == type)
    }

    @Test("hidden, partial and temporary names never count", arguments: [
        ".hidden.jpg", "a.jpg.part", "a.jpg.tmp", "b.jpg.crdownload", "c.jpg~", ".a.jpg.Xy12Zq", "notes.txt", "jpg", "noext",
    ])
    func neverAssets(name: String) {
        #expect(policy.mediaType(of: FileName(name)!) == nil)
    }

    @Test("the extension list can be replaced")
    func customExtensions() {
        let custom = AssetNamePolicy(imageExtensions: ["xyz"], videoExtensions: [])
        #expect(custom.mediaType(of: FileName("a.XYZ")!) == .image)
        #expect(custom.mediaType(of: FileName("a.jpg")!) == nil)
    }
}

@Suite("Identifiers")
struct IdentifierTests {
    @Test("app IDs are reverse-DNS and can never climb out of the views directory", arguments: [
        ("org.example.Viewer", true), ("com.x-y.App_2", true), ("Viewer", false), ("org..x", false),
        ("../etc", false), ("org.example/evil", false), (".org.x", false), ("1org.x", false), ("", false),
    ])
    func appIDs(text: String, valid: Bool) {
        #expect((AppID(text) != nil) == valid)
    }

    @Test("asset IDs are random, well-formed and parse back")
    func assetIDs() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<1000).map { _ in AssetID.random(using: &generator) }
        #expect(Set(ids).count == 1000)
        for id in ids { #expect(AssetID(id.rawValue) == id) }
        #expect(AssetID("not-an-id") == nil)
        #expect(AssetID("ABCDEFGHJKMNPQRS") == nil)  // upper case is not the alphabet
    }

    /// Counts draws and hands out fixed words.
    struct CountingGenerator: RandomNumberGenerator {
        var words: [UInt64]
        var draws = 0
        mutating func next() -> UInt64 {
            defer { draws += 1 }
            return words[draws % words.count]
        }
    }

    @Test("an asset ID takes two draws, five bits a character, every letter at every position")
    func assetIDDraws() {
        var ones = CountingGenerator(words: [.max])
        #expect(AssetID.random(using: &ones).rawValue == String(repeating: "z", count: 16))
        #expect(ones.draws == 2, "one getrandom per character was the cost of a first start")
        var zeros = CountingGenerator(words: [0])
        #expect(AssetID.random(using: &zeros).rawValue == String(repeating: "0", count: 16))
        var system = SystemRandomNumberGenerator()
        var seen = [Set<Character>](repeating: [], count: 16)
        for _ in 0..<2000 {
            for (index, character) in AssetID.random(using: &system).rawValue.enumerated() { seen[index].insert(character) }
        }
        #expect(seen.allSatisfy { $0.count == 32 })
    }

    @Test("authorization spellings of the protocol and the command line both parse")
    func statusSpellings() {
        #expect(AuthorizationStatus(spelling: "not-determined") == .notDetermined)
        #expect(AuthorizationStatus(spelling: "notDetermined") == .notDetermined)
        #expect(AuthorizationStatus(spelling: "limited") == .limited)
        #expect(AuthorizationStatus(spelling: "full") == nil)
        #expect(AccessLevel(spelling: "add-only") == .addOnly)
    }

    @Test("the view layout follows the read-write status")
    func layouts() {
        #expect(ViewLayout(readWrite: .authorized) == .full)
        #expect(ViewLayout(readWrite: .limited) == .limited)
        for status in [AuthorizationStatus.notDetermined, .denied, .restricted] {
            #expect(ViewLayout(readWrite: status) == .empty)
        }
    }

    @Test("limited entry names reveal no album and keep a safe extension")
    func limitedEntryNames() {
        var generator = SystemRandomNumberGenerator()
        let id = AssetID.random(using: &generator)
        let name = ViewEntryNaming.limitedEntryName(id: id, originalName: FileName("IMG_1.HEIC")!, mediaType: .image)
        #expect(name.escaped == "\(id.rawValue).heic")
        let odd = ViewEntryNaming.limitedEntryName(id: id, originalName: FileName(bytes: [0x61, 0x2E, 0xFF])!, mediaType: .video)
        #expect(odd.escaped == "\(id.rawValue).vid")
    }
}
