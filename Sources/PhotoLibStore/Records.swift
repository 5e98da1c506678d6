public import PhotoLibCore

/// One indexed asset file.
public struct AssetRecord: Sendable, Equatable {
    /// The database row, internal to the daemon (never shown: it would reveal counts).
    public var rowID: Int64
    public var id: AssetID
    public var album: AlbumTree.ID
    public var name: FileName
    public var mediaType: MediaType
    public var file: FileFacts
    /// Why the file is left out of every view, when it is.
    public var refusal: LinkRefusal?

    public init(rowID: Int64, id: AssetID, album: AlbumTree.ID, name: FileName, mediaType: MediaType, file: FileFacts,
                refusal: LinkRefusal? = nil) {
        self.rowID = rowID
        self.id = id
        self.album = album
        self.name = name
        self.mediaType = mediaType
        self.file = file
        self.refusal = refusal
    }
}

/// One registered app.
public struct AppRecord: Sendable, Equatable {
    public var id: AppID
    public var uid: UInt32
    public var purpose: String
    public var readWrite: AuthorizationStatus
    public var addOnly: AuthorizationStatus
    /// The view directory's name in the views root (see `ViewName`).
    public var viewName: FileName

    public init(id: AppID, uid: UInt32, purpose: String, readWrite: AuthorizationStatus, addOnly: AuthorizationStatus,
                viewName: FileName) {
        self.viewName = viewName
        self.id = id
        self.uid = uid
        self.purpose = purpose
        self.readWrite = readWrite
        self.addOnly = addOnly
    }

    public var layout: ViewLayout { ViewLayout(readWrite: readWrite) }
}
