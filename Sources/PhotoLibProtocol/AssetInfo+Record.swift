public import PhotoLibCore

extension AssetInfo {
    /// An asset as `assets` shows it to the owner: the photo's path stands for
    /// a Live Photo, whose files are all listed in `members`.
    public init(_ record: AssetRecord, albums: AlbumTree) {
        func path(_ member: MemberRecord) -> String {
            albums.path(of: member.album)?.appending(member.name).escaped ?? member.name.escaped
        }
        let primary = record.primary
        let refusal = record.refusal
        self.init(
            id: record.id.rawValue,
            path: path(primary),
            mediaType: record.mediaType.rawValue,
            size: primary.file.size,
            mtime: primary.file.modificationTime,
            writableByOthers: record.members.contains { $0.file.isWritableByOthers } ? true : nil,
            refused: refusal?.rawValue,
            refusedBecause: refusal?.explanation,
            members: record.members.count > 1 ? record.members.map {
                MemberInfo(path: path($0), mediaType: $0.mediaType.rawValue, size: $0.file.size,
                           mtime: $0.file.modificationTime, refused: $0.refusal?.rawValue)
            } : nil
        )
    }
}
