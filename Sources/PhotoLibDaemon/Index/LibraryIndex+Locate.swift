import PhotoLibCore
import PhotoLibStore

/// Where an asset is in the library now: what view changes, events and `list` are made of.
extension LibraryIndex {
    /// Where an asset and its members are now, for view changes.
    func locate(_ record: AssetRecord) -> LocatedAsset? {
        Self.locate(record, in: albums)
    }

    static func locate(_ record: AssetRecord, in albums: AlbumTree) -> LocatedAsset? {
        let members = record.members.compactMap { member in
            albums.path(of: member.album).map {
                LocatedMember(rowID: member.rowID, path: $0.appending(member.name), mediaType: member.mediaType,
                              file: member.file, refusal: member.refusal, takenAt: member.takenAt)
            }
        }
        guard !members.isEmpty else { return nil }
        return LocatedAsset(rowID: record.rowID, id: record.id, mediaType: record.mediaType, members: members,
                            ancestry: albums.ancestry(of: record.primary.album))
    }
}
