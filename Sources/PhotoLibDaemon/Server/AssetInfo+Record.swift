import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

extension AssetInfo {
    init(_ record: AssetRecord, albums: AlbumTree) {
        let path = albums.path(of: record.album)?.appending(record.name)
        self.init(
            id: record.id.rawValue,
            path: path?.escaped ?? record.name.escaped,
            mediaType: record.mediaType.rawValue,
            size: record.file.size,
            mtime: record.file.modificationTime,
            writableByOthers: record.file.isWritableByOthers ? true : nil,
            refused: record.refusal?.rawValue,
            refusedBecause: record.refusal?.explanation
        )
    }
}
