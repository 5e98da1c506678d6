/// Which assets a listing holds (`assets` in the protocol); nil or false: no condition.
public struct ListingFilter: Sendable, Equatable {
    /// A member file in one of these albums (and, with `nameContains`, that same member's name matches).
    public var albums: [AlbumTree.ID]?
    public var mediaType: MediaType?
    /// A member file whose name holds these bytes, ASCII letters in either case (or, with
    /// `orInAlbums`, a member file in one of those albums: the search matched their path).
    public var nameContains: [UInt8]?
    public var orInAlbums: [AlbumTree.ID]?
    /// With `nameContains`: or a member file taken in one of these places (the search matched a place's name).
    public var orInPlaces: [Int64]?
    /// A member taken in this span (seconds; `to` excluded): its capture time, or its modification time until it is read.
    public var takenFrom: Int64?
    public var takenTo: Int64?
    /// Only assets with a member left out of every view.
    public var refusedOnly: Bool
    /// Only assets with a member whose current location check could not tell.
    public var withheldOnly: Bool

    public init(albums: [AlbumTree.ID]? = nil, mediaType: MediaType? = nil, nameContains: [UInt8]? = nil, orInAlbums: [AlbumTree.ID]? = nil,
                orInPlaces: [Int64]? = nil, takenFrom: Int64? = nil, takenTo: Int64? = nil, refusedOnly: Bool = false, withheldOnly: Bool = false) {
        self.albums = albums
        self.orInAlbums = orInAlbums
        self.orInPlaces = orInPlaces
        self.takenFrom = takenFrom
        self.takenTo = takenTo
        self.mediaType = mediaType
        self.nameContains = nameContains
        self.refusedOnly = refusedOnly
        self.withheldOnly = withheldOnly
    }
}
