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

    /// The status a request of `kind` is about: its access level's, read-write's for a review.
    public func status(askedBy kind: RequestKind) -> AuthorizationStatus {
        kind.access == .addOnly ? addOnly : readWrite
    }
}
