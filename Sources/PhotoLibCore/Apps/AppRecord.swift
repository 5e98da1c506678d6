/// One registered app.
public struct AppRecord: Sendable, Equatable {
    public var id: AppID
    public var uid: UInt32
    public var purpose: String
    public var readWrite: AuthorizationStatus
    public var addOnly: AuthorizationStatus
    /// The view directory's name in the views root (see `ViewName`).
    public var viewName: FileName
    /// Whether the app sees where photos were taken.
    public var location: LocationPolicy
    /// The app's own asset IDs.
    public var assetIDs: AppAssetIDs

    public init(id: AppID, uid: UInt32, purpose: String, readWrite: AuthorizationStatus, addOnly: AuthorizationStatus,
                viewName: FileName, location: LocationPolicy = .newAppDefault, assetIDs: AppAssetIDs) {
        self.assetIDs = assetIDs
        self.viewName = viewName
        self.location = location
        self.id = id
        self.uid = uid
        self.purpose = purpose
        self.readWrite = readWrite
        self.addOnly = addOnly
    }

    public var layout: ViewLayout { ViewLayout(readWrite: readWrite) }

    /// The app's uid when it runs as a user of its own, who must be let into its
    /// view, inbox and endpoint by an ACL entry; nil for the owner's uid and
    /// root's, who reach them anyway.
    public func ownUID(ownerUID: UInt32) -> UInt32? {
        uid != ownerUID && uid != 0 ? uid : nil
    }

    /// Where the app's own directory or socket is under `parent` (the views, inboxes
    /// or endpoints directory): its random view name, the same in each.
    public func path(under parent: String) -> String {
        parent + "/" + String(decoding: viewName.bytes, as: UTF8.self)
    }

    /// The status a request of `kind` is about: its access level's, read-write's for a review.
    public func status(askedBy kind: RequestKind) -> AuthorizationStatus {
        kind.access == .addOnly ? addOnly : readWrite
    }
}
