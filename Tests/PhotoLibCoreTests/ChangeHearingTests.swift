import PhotoLibCore
import Testing

/// Who hears what of a batch of library changes, on fake assets and a fake view (an app
/// sees what its `viewAsset` shows: here, every asset outside `Private/`, under its path).
@Suite("Who hears what: an app's notice for a batch of library changes")
struct ChangeHearingTests {
    static let facts = FileFacts(device: 1, inode: 1, size: 10, modificationTime: 5, permissions: 0o644)

    static func asset(_ id: String, at path: String) -> LocatedAsset {
        LocatedAsset(rowID: 1, id: AssetID(id)!, mediaType: .image,
                     members: [LocatedMember(rowID: 1, path: RelativePath(escaped: path)!, mediaType: .image, file: facts)], ancestry: [])
    }

    static func viewAsset(_ asset: LocatedAsset?) -> ViewAsset? {
        guard let asset, let path = asset.primary?.path, !path.escaped.hasPrefix("Private/") else { return nil }
        return ViewAsset(id: asset.id.rawValue, entry: path.escaped, mediaType: "image", size: 10, mtime: 5)
    }

    func notice(_ layout: ViewLayout, albumGrants: Bool = false, _ changes: [ViewChange], overflowed: Bool = false,
                moved: [RelativePath: [LocatedAsset]] = [:]) -> ChangeHearing.Notice {
        ChangeHearing.notice(layout: layout, hasAlbumGrants: albumGrants, changes: changes, overflowed: overflowed,
                             movedAssets: moved, viewAsset: Self.viewAsset)
    }

    @Test("an asset that enters, leaves or changes in what the app sees is listed; one it never sees is not told")
    func assets() {
        let beach = Self.asset("q2x7aaaaaaaaaaaa", at: "Trips/beach.jpg")
        let secret = Self.asset("q2x7bbbbbbbbbbbb", at: "Private/secret.jpg")
        #expect(notice(.full, [.asset(old: nil, new: beach)]) == .details(ChangeDetails(inserted: [Self.viewAsset(beach)!])))
        #expect(notice(.full, [.asset(old: beach, new: nil)]) == .details(ChangeDetails(removed: [Self.viewAsset(beach)!])))
        #expect(notice(.full, [.asset(old: nil, new: secret)]) == .nothing)
        // Moved out of sight: removed, as the app sees it.
        let hidden = Self.asset("q2x7aaaaaaaaaaaa", at: "Private/beach.jpg")
        #expect(notice(.full, [.asset(old: beach, new: hidden)]) == .details(ChangeDetails(removed: [Self.viewAsset(beach)!])))
        #expect(notice(.empty, [.asset(old: nil, new: beach)]) == .nothing, "an app that sees nothing hears nothing")
        #expect(notice(.full, [.asset(old: nil, new: beach)], overflowed: true) == .reload, "a batch too large to keep: reload")
    }

    @Test("an album moved: a full view hears each asset under it changed, with its new path; a limited one only when an album grant is involved")
    func albumMoves() {
        let from = RelativePath(escaped: "Trips")!, to = RelativePath(escaped: "Holidays/Trips")!
        let now = Self.asset("q2x7aaaaaaaaaaaa", at: "Holidays/Trips/beach.jpg")
        let moved = notice(.full, [.albumMoved(from: from, to: to)], moved: [to: [now]])
        #expect(moved == .details(ChangeDetails(changed: [Self.viewAsset(now)!])), "\(moved)")
        #expect(notice(.full, [.albumMoved(from: from, to: to)]) == .reload, "the album cannot be found now: reload")
        #expect(notice(.limited, [.albumMoved(from: from, to: to)]) == .nothing)
        #expect(notice(.limited, albumGrants: true, [.albumMoved(from: from, to: to)]) == .reload)
    }
}
