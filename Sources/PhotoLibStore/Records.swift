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

    public init(rowID: Int64, id: AssetID, album: AlbumTree.ID, name: FileName, mediaType: MediaType, file: FileFacts) {
        self.rowID = rowID
        self.id = id
        self.album = album
        self.name = name
        self.mediaType = mediaType
        self.file = file
    }
}

/// What the index remembers of an asset's inode, to notice changes.
public struct FileFacts: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modificationTime: Int64
    public var permissions: UInt32

    public init(device: UInt64, inode: UInt64, size: Int64, modificationTime: Int64, permissions: UInt32) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationTime = modificationTime
        self.permissions = permissions
    }

    /// Group or other may write the inode: such a file is never linked into a view.
    public var isWritableByOthers: Bool { permissions & 0o022 != 0 }
}

/// One registered app.
public struct AppRecord: Sendable, Equatable {
    public var id: AppID
    public var uid: UInt32
    public var purpose: String
    public var readWrite: AuthorizationStatus
    public var addOnly: AuthorizationStatus

    public init(id: AppID, uid: UInt32, purpose: String, readWrite: AuthorizationStatus, addOnly: AuthorizationStatus) {
        self.id = id
        self.uid = uid
        self.purpose = purpose
        self.readWrite = readWrite
        self.addOnly = addOnly
    }

    public var layout: ViewLayout { ViewLayout(readWrite: readWrite) }
}
