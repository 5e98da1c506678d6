/// One member file of an asset as it stood at one moment: where it was in the
/// library and what the index knew of it.
public struct LocatedMember: Sendable, Equatable {
    /// The member's database row (never shown: it would reveal counts).
    public var rowID: Int64
    /// Its path relative to the library.
    public var path: RelativePath
    /// `image` or `video`.
    public var mediaType: MediaType
    public var file: FileFacts
    /// Why this file is left out of every view, when it is.
    public var refusal: LinkRefusal?
    /// When it was taken (seconds since the epoch), once looked at (see `CaptureRule`).
    public var takenAt: Int64?

    public init(rowID: Int64, path: RelativePath, mediaType: MediaType, file: FileFacts, refusal: LinkRefusal? = nil,
                takenAt: Int64? = nil) {
        self.takenAt = takenAt
        self.rowID = rowID
        self.path = path
        self.mediaType = mediaType
        self.file = file
        self.refusal = refusal
    }
}

/// An asset as it stood at one moment: its ID, its member files where they
/// were, and the albums above it. What the view policy decides on, and what a
/// change carries, so applying a list of changes in order is always consistent.
public struct LocatedAsset: Sendable, Equatable {
    /// The asset's database row: what selections refer to.
    public var rowID: Int64
    public var id: AssetID
    /// `image`, `video` or `live`.
    public var mediaType: MediaType
    /// The image first (the photo of a Live Photo), then by row.
    public var members: [LocatedMember]
    /// The first member's album and every album above it, for live album grants.
    public var ancestry: [AlbumTree.ID]

    public init(rowID: Int64, id: AssetID, mediaType: MediaType, members: [LocatedMember], ancestry: [AlbumTree.ID]) {
        self.rowID = rowID
        self.id = id
        self.mediaType = mediaType
        self.members = members
        self.ancestry = ancestry
    }

    /// The member that stands for the asset: the photo of a Live Photo.
    public var primary: LocatedMember? { members.first }

    /// When the asset was taken: its primary member's capture time.
    public var takenAt: Int64? { primary?.takenAt }
}

extension LocatedAsset {
    /// Where an indexed asset and its members are now, by the album tree: what
    /// view changes, events and `list` are made of. Nil when none of its
    /// members' albums is in the tree (the asset is on its way out).
    public init?(_ record: AssetRecord, in albums: AlbumTree) {
        let members = record.members.compactMap { member in
            albums.path(of: member.album).map {
                LocatedMember(rowID: member.rowID, path: $0.appending(member.name), mediaType: member.mediaType,
                              file: member.file, refusal: member.refusal, takenAt: member.takenAt)
            }
        }
        guard !members.isEmpty else { return nil }
        self.init(rowID: record.rowID, id: record.id, mediaType: record.mediaType, members: members,
                  ancestry: albums.ancestry(of: record.primary.album))
    }
}
