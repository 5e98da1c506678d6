/// Which entries one app's view must hold for an asset: the one rule that
/// full reconciles, incremental updates, change events and `list` all follow,
/// so what an app is told always matches its directory.
///
/// - `empty`: nothing.
/// - `full`: every member file the owner can share, at its library path.
/// - `limited`: for a selected asset (or one in or below a selected album),
///   one entry per member file the owner can share, named by the asset ID and
///   the member's extension (`ID.heic`, `ID.mov`): flat, stable, and telling
///   nothing of albums or original names.
///
/// A member whose original is refused (`LinkRefusal`) never has an entry; the
/// asset's other members still do.
public struct ViewPolicy: Sendable, Equatable {
    /// One entry a view holds: where in the view, and which member file it links.
    public struct Entry: Sendable, Equatable {
        /// Relative to the view directory.
        public var path: RelativePath
        public var member: LocatedMember
    }

    public var layout: ViewLayout
    /// Asset rows selected one by one (limited layout).
    public var selectedAssets: Set<Int64>
    /// Albums granted whole, live (limited layout).
    public var selectedAlbums: Set<AlbumTree.ID>
    /// Rule grants: assets taken in a span, live (limited layout).
    public var selectedRules: [CaptureRule]
    /// The app's own asset IDs, in entry names and what it is told; the library's when nil.
    public var ids: AppAssetIDs?

    public init(layout: ViewLayout, selectedAssets: Set<Int64> = [], selectedAlbums: Set<AlbumTree.ID> = [],
                selectedRules: [CaptureRule] = [], ids: AppAssetIDs? = nil) {
        self.ids = ids
        self.layout = layout
        self.selectedAssets = selectedAssets
        self.selectedAlbums = selectedAlbums
        self.selectedRules = selectedRules
    }

    /// The ID the app knows the asset by.
    public func shownID(_ id: AssetID) -> AssetID {
        ids?.id(for: id) ?? id
    }

    /// Whether the app was given the asset, refused members aside.
    public func isGranted(_ asset: LocatedAsset) -> Bool {
        switch layout {
        case .empty: return false
        case .full: return true
        case .limited:
            return selectedAssets.contains(asset.rowID) || asset.ancestry.contains(where: selectedAlbums.contains)
                || selectedRules.contains { $0.matches(asset) }
        }
    }

    /// Where each member's entry is (or would be) in the view, granted or not,
    /// refused or not: what to remove when the asset leaves or changes.
    public func placements(_ asset: LocatedAsset) -> [Entry] {
        asset.members.map { member in
            switch layout {
            case .full, .empty:
                return Entry(path: member.path, member: member)
            case .limited:
                let name = member.path.lastComponent.map {
                    ViewEntryNaming.limitedEntryName(id: shownID(asset.id), originalName: $0, mediaType: member.mediaType)
                } ?? FileName(shownID(asset.id).rawValue)!
                return Entry(path: RelativePath([name]), member: member)
            }
        }
    }

    /// The entries the view must hold for the asset (a member whose
    /// `appearance` is `hidden`, withheld for want of a location check, has none).
    public func entries(_ asset: LocatedAsset, appearance: (LocatedMember) -> MemberAppearance = { _ in .original }) -> [Entry] {
        guard isGranted(asset) else { return [] }
        return placements(asset).filter { Self.isLinked(refusal: $0.member.refusal) && appearance($0.member) != .hidden }
    }

    /// A full view, one album at a time (the whole-view reconcile reads the index so, not asset by
    /// asset): the album's files that have an entry, under their own names. The same rule as
    /// `entries` for `.full`: every file granted, a refused one left out. Lazy: a restart goes
    /// through every file of the library so, and a filtered copy would hash each name once more.
    public static func fullViewFiles(inAlbum files: [FileName: IndexedFile]) -> LazyFilterSequence<[FileName: IndexedFile]> {
        files.lazy.filter { isLinked(refusal: $0.value.refusal) }
    }

    /// A file the library holds but photolibd will not link (owned by another user, writable by others…) has no entry.
    static func isLinked(refusal: LinkRefusal?) -> Bool { refusal == nil }

    /// The asset as the app sees it, or nil when it has no entry in the view.
    /// A member shown as a copy without location has the copy's size.
    public func viewAsset(_ asset: LocatedAsset?, appearance: (LocatedMember) -> MemberAppearance = { _ in .original }) -> ViewAsset? {
        guard let asset else { return nil }
        let shown = entries(asset, appearance: appearance)
        guard let first = shown.first else { return nil }
        func size(_ member: LocatedMember) -> Int64 {
            if case .copy(let size) = appearance(member) { return size }
            return member.file.size
        }
        let members = shown.count > 1 ? shown.map {
            ViewMember(entry: $0.path.escaped, mediaType: $0.member.mediaType.rawValue,
                       size: size($0.member), mtime: $0.member.file.modificationTime)
        } : nil
        return ViewAsset(id: shownID(asset.id).rawValue, entry: first.path.escaped,
                         mediaType: MediaType.ofAsset(members: shown.map(\.member.mediaType)).rawValue,
                         size: size(first.member), mtime: first.member.file.modificationTime, members: members)
    }
}
