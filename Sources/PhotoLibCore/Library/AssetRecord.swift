/// One member file of an asset, as the index stores it.
public struct MemberRecord: Sendable, Equatable {
    /// The database row, internal to the daemon (never shown: it would reveal counts).
    public var rowID: Int64
    /// The asset row this file belongs to.
    public var asset: Int64
    public var album: AlbumTree.ID
    public var name: FileName
    /// `image` or `video`, from the name.
    public var mediaType: MediaType
    public var file: FileFacts
    /// Why the file is left out of every view, when it is.
    public var refusal: LinkRefusal?
    /// When it was taken (seconds since the epoch), once looked at.
    public var takenAt: Int64?

    public init(rowID: Int64, asset: Int64, album: AlbumTree.ID, name: FileName, mediaType: MediaType, file: FileFacts,
                refusal: LinkRefusal? = nil, takenAt: Int64? = nil) {
        self.takenAt = takenAt
        self.rowID = rowID
        self.asset = asset
        self.album = album
        self.name = name
        self.mediaType = mediaType
        self.file = file
        self.refusal = refusal
    }
}

/// One indexed asset: its ID and its member files (one, or the image and
/// video of a Live Photo).
public struct AssetRecord: Sendable, Equatable {
    /// The database row: what selections refer to (never shown).
    public var rowID: Int64
    public var id: AssetID
    /// `image`, `video` or `live`.
    public var mediaType: MediaType
    /// The image first, then by row.
    public var members: [MemberRecord]

    public init(rowID: Int64, id: AssetID, mediaType: MediaType, members: [MemberRecord]) {
        self.rowID = rowID
        self.id = id
        self.mediaType = mediaType
        self.members = members
    }

    /// The member that stands for the asset (the photo of a Live Photo).
    public var primary: MemberRecord { members[0] }

    /// The first refusal among the members, when one is refused.
    public var refusal: LinkRefusal? { members.lazy.compactMap(\.refusal).first }
}

extension AssetRecord {
    /// Why the asset is withheld from apps without location, when it is: the
    /// first member whose check, current for its content, could not tell.
    public func withheldReason(checks: [Int64: LocationCheck]) -> String? {
        members.lazy.compactMap { member -> String? in
            guard let check = checks[member.rowID], check.isCurrent(for: member.file),
                  case .cannotTell(let reason) = check.outcome else { return nil }
            return reason
        }.first
    }
}
