/// One asset's place in a listing: its primary member's album, name and time.
///
/// Light enough to read for every asset of a 100,000-photo library on each
/// page the person scrolls to; the whole record is read only for the page.
public struct ListingKey: Sendable, Equatable {
    public var rowID: Int64
    public var album: AlbumTree.ID
    public var name: [UInt8]
    public var modificationTime: Int64

    public init(rowID: Int64, album: AlbumTree.ID, name: [UInt8], modificationTime: Int64) {
        self.rowID = rowID
        self.album = album
        self.name = name
        self.modificationTime = modificationTime
    }
}
