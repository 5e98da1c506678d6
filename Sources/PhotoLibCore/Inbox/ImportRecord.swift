/// An import from an app's inbox, as recorded (schema v10).
public struct ImportRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Under way: the copy may exist under its temporary name, or already under `targetName`.
        case copying
        /// Taken in; the app sees the new asset.
        case added
        /// Taken in for an add-only app, which never sees it.
        case accepted
        /// Refused; the file is in the inbox's `rejected/`.
        case rejected
    }

    public var id: Int64
    public var app: AppID
    public var sourceName: FileName
    public var sourceDevice: UInt64
    public var sourceInode: UInt64
    public var sourceBirth: Int64?
    public var album: RelativePath
    public var targetName: FileName?
    public var copyInode: UInt64?
    public var bytes: Int64
    public var state: State
    public var at: Int64

    public init(id: Int64, app: AppID, sourceName: FileName, sourceDevice: UInt64, sourceInode: UInt64, sourceBirth: Int64?,
                album: RelativePath, targetName: FileName?, copyInode: UInt64?, bytes: Int64, state: State, at: Int64) {
        self.id = id
        self.app = app
        self.sourceName = sourceName
        self.sourceDevice = sourceDevice
        self.sourceInode = sourceInode
        self.sourceBirth = sourceBirth
        self.album = album
        self.targetName = targetName
        self.copyInode = copyInode
        self.bytes = bytes
        self.state = state
        self.at = at
    }
}
