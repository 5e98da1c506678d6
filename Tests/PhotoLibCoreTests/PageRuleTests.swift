import PhotoLibCore
import Testing

@Suite("The page's rules")
struct PageRuleTests {
    @Test("access in the person's words, from the two statuses and the counts", arguments: [
        (AuthorizationStatus.authorized, AuthorizationStatus.notDetermined, 0, 1204, AccessWording.Level.full, "Full Access (all 1,204 photos)"),
        (.authorized, .denied, 0, 1, .full, "Full Access (all 1 photo)"),
        (.limited, .notDetermined, 3, 1204, .selected, "Selected Photos (3)"),
        (.limited, .authorized, 12_345, 99_999, .selected, "Selected Photos (12,345)"),
        (.denied, .authorized, 0, 10, .addOnly, "Add Photos Only"),
        (.notDetermined, .limited, 0, 10, .addOnly, "Add Photos Only"),
        (.denied, .denied, 0, 10, .none, "None"),
        (.restricted, .notDetermined, 0, 10, .none, "None"),
        (.notDetermined, .notDetermined, 0, 10, .none, "Not decided yet: sees nothing"),
    ])
    func accessWording(readWrite: AuthorizationStatus, addOnly: AuthorizationStatus, selected: Int, library: Int,
                       level: AccessWording.Level, words: String) {
        let wording = AccessWording(readWrite: readWrite, addOnly: addOnly, selectedAssets: selected, libraryAssets: library)
        #expect(wording.level == level)
        #expect(wording.words == words)
    }

    @Test("full access sorts first, none last")
    func levelsOrder() {
        #expect(AccessWording.Level.allCases.sorted(by: >) == [.full, .selected, .addOnly, .none])
    }

    static func facts(host: String? = "127.0.0.1:8123", origin: String? = nil, changes: Bool = false, session: Bool = true,
                      csrf: Bool = false, isPublic: Bool = false) -> PageRequestCheck.Facts {
        .init(host: host, origin: origin, changesState: changes, sessionValid: session, csrfMatches: csrf, isPublic: isPublic)
    }

    @Test("who may use the page: Host first, then the session, then Origin and the CSRF token for a change")
    func requestChecks() {
        let port = 8123
        #expect(PageRequestCheck.refusal(Self.facts(), port: port) == nil)
        #expect(PageRequestCheck.refusal(Self.facts(host: "localhost:8123"), port: port) == .wrongHost("localhost:8123"))
        #expect(PageRequestCheck.refusal(Self.facts(host: "attacker.example:8123"), port: port) == .wrongHost("attacker.example:8123"))
        #expect(PageRequestCheck.refusal(Self.facts(host: "127.0.0.1:8124"), port: port) == .wrongHost("127.0.0.1:8124"))
        #expect(PageRequestCheck.refusal(Self.facts(host: nil), port: port) == .wrongHost(nil))
        // A rebinding host is refused even on public routes.
        #expect(PageRequestCheck.refusal(Self.facts(host: "evil:8123", session: false, isPublic: true), port: port) == .wrongHost("evil:8123"))
        #expect(PageRequestCheck.refusal(Self.facts(session: false, isPublic: true), port: port) == nil)
        #expect(PageRequestCheck.refusal(Self.facts(session: false), port: port) == .noSession)
        #expect(PageRequestCheck.refusal(Self.facts(changes: true, session: false), port: port) == .noSession)
        #expect(PageRequestCheck.refusal(Self.facts(origin: "http://127.0.0.1:8123", changes: true, csrf: true), port: port) == nil)
        #expect(PageRequestCheck.refusal(Self.facts(origin: nil, changes: true, csrf: true), port: port) == .foreignOrigin(nil))
        #expect(PageRequestCheck.refusal(Self.facts(origin: "null", changes: true, csrf: true), port: port) == .foreignOrigin("null"))
        #expect(PageRequestCheck.refusal(Self.facts(origin: "http://localhost:8123", changes: true, csrf: true), port: port)
                == .foreignOrigin("http://localhost:8123"))
        #expect(PageRequestCheck.refusal(Self.facts(origin: "http://127.0.0.1:8123", changes: true, csrf: false), port: port) == .badCSRFToken)
        #expect(PageRequestCheck.Refusal.wrongHost(nil).status == 421)
        #expect(PageRequestCheck.Refusal.noSession.status == 401)
        #expect(PageRequestCheck.Refusal.badCSRFToken.status == 403)
    }

    @Test("secrets compare equal only when every byte is")
    func secrets() {
        #expect(PageRequestCheck.secretsEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!PageRequestCheck.secretsEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!PageRequestCheck.secretsEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!PageRequestCheck.secretsEqual([], Array("a".utf8)))
        var generator = SystemRandomNumberGenerator()
        let secret = Secret.hex(bytes: 32, using: &generator)
        #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit))
        #expect(Secret.hex(bytes: 3, using: &generator).count == 6)
        #expect(secret != Secret.hex(bytes: 32, using: &generator))
    }

    @Test("the page's directory sits beside the socket, as the endpoints do")
    func pagePaths() {
        let paths = PagePaths(socket: "/run/user/1000/photolibd.sock")
        #expect(paths.directory == "/run/user/1000/photolibd-page")
        #expect(paths.serverFile == "/run/user/1000/photolibd-page/server.json")
        #expect(paths.signInDirectory == "/run/user/1000/photolibd-page/sign-in")
        #expect(PagePaths(socket: "/photolibd.sock").directory == "/photolibd-page")
        #expect(PagePaths(socket: "sock").directory == "./photolibd-page")
    }

    struct Item: Equatable {
        let path: String
        let mtime: Int64
    }

    @Test("pages of a listing: newest first with ties by path, bytewise by path, and windows that never skip or repeat")
    func listingPages() throws {
        let items = [Item(path: "b.jpg", mtime: 5), Item(path: "a.jpg", mtime: 5), Item(path: "c.jpg", mtime: 9),
                     Item(path: "Z.jpg", mtime: 1), Item(path: "é.jpg", mtime: 3)]
        func ordered(_ order: String?, _ offset: Int? = nil, _ limit: Int? = nil) throws -> [String] {
            try ListingPage(order: order, offset: offset, limit: limit).apply(items, path: { Array($0.path.utf8) }, mtime: \.mtime).map(\.path)
        }
        #expect(try ordered(nil) == ["Z.jpg", "a.jpg", "b.jpg", "c.jpg", "é.jpg"])
        #expect(try ordered("newest") == ["c.jpg", "a.jpg", "b.jpg", "é.jpg", "Z.jpg"])
        let pages = try [ordered("newest", 0, 2), ordered("newest", 2, 2), ordered("newest", 4, 2), ordered("newest", 6, 2)]
        #expect(pages.flatMap { $0 } == (try ordered("newest")))
        #expect(try ordered("newest", 1, 0).isEmpty)
        #expect(throws: PhotoLibError.self) { try ListingPage(order: "random", offset: nil, limit: nil) }
        #expect(throws: PhotoLibError.self) { try ListingPage(order: nil, offset: -1, limit: nil) }
        #expect(throws: PhotoLibError.self) { try ListingPage(order: nil, offset: nil, limit: -5) }
    }
}

@Suite("Early pages of a long listing")
struct ListingWindowTests {
    @Test("an early page, kept as keys pass, is exactly that window of the whole order, ties included")
    func earlyPages() throws {
        var generator = SystemRandomNumberGenerator()
        // Few distinct times, so ties (broken by path) are everywhere, as in a library imported at once.
        let items = (0..<2_000).map { index in
            (path: "Album\(Int.random(in: 0..<40, using: &generator))/IMG_\(index).jpg", mtime: Int64.random(in: 0..<5, using: &generator))
        }
        for order in ["newest", "path"] {
            let whole = try ListingPage(order: order, offset: nil, limit: nil).apply(items, path: { Array($0.path.utf8) }, mtime: \.mtime).map(\.path)
            for (offset, limit) in [(0, 1), (0, 120), (120, 120), (7, 30), (0, 249)] {
                let page = try ListingPage(order: order, offset: offset, limit: limit).apply(items, path: { Array($0.path.utf8) }, mtime: \.mtime)
                #expect(page.map(\.path) == Array(whole[offset..<offset + limit]), "\(order) \(offset) \(limit)")
            }
        }
    }
}

@Suite("PNG text fields, as the thumbnail cache keeps them")
struct PNGTextTests {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + Array(type.utf8) + data + [0, 0, 0, 0]
    }

    @Test("Thumb::MTime is read from its tEXt chunk; other fields, image data and damage are told apart")
    func fields() {
        let header = PNGText.signature + chunk("IHDR", Array(repeating: 0, count: 13))
        let png = header + chunk("tEXt", Array("Thumb::URI\u{0}file:///a.jpg".utf8)) + chunk("tEXt", Array("Thumb::MTime\u{0}1700000000".utf8))
            + chunk("IDAT", [1, 2, 3]) + chunk("IEND", [])
        #expect(PNGText.value(of: "Thumb::MTime", in: png) == "1700000000")
        #expect(PNGText.value(of: "Thumb::URI", in: png) == "file:///a.jpg")
        #expect(PNGText.value(of: "Thumb::Size", in: png) == nil)
        // A field after the image data is not the standard's.
        let late = header + chunk("IDAT", [1]) + chunk("tEXt", Array("Thumb::MTime\u{0}5".utf8))
        #expect(PNGText.value(of: "Thumb::MTime", in: late) == nil)
        // A chunk whose length runs past the end, and bytes that are no PNG.
        var damaged = header + chunk("tEXt", Array("Thumb::MTime\u{0}7".utf8))
        damaged[header.count + 3] = 200
        #expect(PNGText.value(of: "Thumb::MTime", in: damaged) == nil)
        #expect(PNGText.value(of: "Thumb::MTime", in: Array("GIF89a".utf8)) == nil)
        #expect(PNGText.value(of: "Thumb::MTime", in: []) == nil)
    }
}

@Suite("A video's duration, for its placeholder")
struct MovieDurationTests {
    func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }

    func uint32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    @Test("read from mvhd (versions 0 and 1), even when the media data after it is cut off; words as a grid shows them")
    func duration() throws {
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0])
        let version0 = box("mvhd", [0, 0, 0, 0] + uint32(1) + uint32(2) + uint32(1000) + uint32(12_400) + [UInt8](repeating: 0, count: 80))
        let version1 = box("mvhd", [1, 0, 0, 0] + uint32(0) + uint32(1) + uint32(0) + uint32(2) + uint32(600) + uint32(0) + uint32(600 * 3723)
                           + [UInt8](repeating: 0, count: 80))
        // The mdat box claims far more than the file holds: the data was cut off.
        let cutOff = uint32(1_000_000) + Array("mdat".utf8) + [1, 2, 3]
        #expect(try MovieDuration.seconds(IsoMediaBytes(ftyp + box("moov", version0) + cutOff)) == 12.4)
        #expect(try MovieDuration.seconds(IsoMediaBytes(ftyp + cutOff + box("moov", version0))) == nil, "nothing after a box that makes no sense")
        #expect(try MovieDuration.seconds(IsoMediaBytes(ftyp + box("moov", version1))) == 3723)
        #expect(try MovieDuration.seconds(IsoMediaBytes(Array("not a video at all".utf8))) == nil)
        // A read that fails is not a video without a length: it is said.
        struct Unreadable: IsoMediaFile {
            var size: UInt64 { 4096 }
            func read(at offset: UInt64, count: Int) throws(IsoMediaProblem) -> [UInt8] { throw .unreadable(errno: 5) }
        }
        #expect(throws: IsoMediaProblem.unreadable(errno: 5)) { try MovieDuration.seconds(Unreadable()) }
        #expect(MovieDuration.words(12.4) == "0:12")
        #expect(MovieDuration.words(59.6) == "1:00")
        #expect(MovieDuration.words(750) == "12:30")
        #expect(MovieDuration.words(3723) == "1:02:03")
    }
}

@Suite("A search names albums too")
struct AlbumSearchTests {
    @Test("albums whose path holds the text, either case, with their sub-albums; not the library's root")
    func albums() {
        var tree = AlbumTree()
        let (trips, summer, home): (AlbumTree.ID, AlbumTree.ID, AlbumTree.ID) = (2, 3, 4)
        tree.insert(id: trips, parent: AlbumTree.rootID, name: FileName("Trips")!)
        tree.insert(id: summer, parent: trips, name: FileName("2024 Summer")!)
        tree.insert(id: home, parent: AlbumTree.rootID, name: FileName("Home")!)
        #expect(AlbumSearch.matching(Array("trips".utf8), in: tree) == [trips, summer])
        #expect(AlbumSearch.matching(Array("SUMMER".utf8), in: tree) == [summer])
        #expect(AlbumSearch.matching(Array("beach".utf8), in: tree).isEmpty)
        #expect(AlbumSearch.matching([], in: tree).isEmpty)
        _ = home
    }
}

@Suite("A listing's keys and an asset's withheld reason, as the page reads them")
struct ListingKeyRuleTests {
    @Test("keys sort by album path then name; the album's path comes from the tree")
    func keysByAlbumPath() throws {
        var albums = AlbumTree()
        albums.insert(id: 2, parent: AlbumTree.rootID, name: FileName("Zoo")!)
        albums.insert(id: 3, parent: AlbumTree.rootID, name: FileName("Beach")!)
        let keys = [ListingKey(rowID: 10, album: 2, name: Array("a.jpg".utf8), modificationTime: 5),
                    ListingKey(rowID: 11, album: 3, name: Array("z.jpg".utf8), modificationTime: 9),
                    ListingKey(rowID: 12, album: AlbumTree.rootID, name: Array("m.jpg".utf8), modificationTime: 1)]
        let sortKeys = ListingSortKeys(keys, albums: albums)
        #expect(sortKeys.count == 3)
        let byPath = try ListingPage(order: "path", offset: 0, limit: 10).window(of: sortKeys).map { keys[$0].rowID }
        #expect(byPath == [11, 10, 12], "by bytes: Beach/z.jpg, Zoo/a.jpg, m.jpg")
        let newest = try ListingPage(order: "newest", offset: 0, limit: 10).window(of: sortKeys).map { keys[$0].rowID }
        #expect(newest == [11, 10, 12])
    }

    @Test("withheld: the reason of a current check that could not tell; a stale check or one that could tell is none")
    func withheldReason() {
        let facts = FileFacts(device: 1, inode: 7, size: 10, modificationTime: 100, permissions: 0o644)
        let member = MemberRecord(rowID: 1, asset: 1, album: AlbumTree.rootID, name: FileName("a.jpg")!, mediaType: .image, file: facts)
        let record = AssetRecord(rowID: 1, id: AssetID.fromBits(high: 1, low: 1), mediaType: .image, members: [member])
        #expect(record.withheldReason(checks: [1: LocationCheck(of: facts, outcome: .cannotTell("exiv2 cannot read it"))]) == "exiv2 cannot read it")
        var changed = facts
        changed.size = 11
        #expect(record.withheldReason(checks: [1: LocationCheck(of: changed, outcome: .cannotTell("old"))]) == nil)
        #expect(record.withheldReason(checks: [1: LocationCheck(of: facts, outcome: .noLocation)]) == nil)
        #expect(record.withheldReason(checks: [:]) == nil)
    }
}
