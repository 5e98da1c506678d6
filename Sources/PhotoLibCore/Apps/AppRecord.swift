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
    /// An installed Flatpak app (the ID is its Flatpak ID, it runs as the owner) whose
    /// view is its own Pictures folder, `~/.var/app/ID/Pictures`, held as copies or
    /// clones: nothing it writes there reaches an original (SPEC §11).
    public var flatpakPictures = false
    /// Whether captions, titles and people's names leave with what the app picks, when the
    /// person does not choose otherwise in the pick's sheet (`SharingChoice`). Off by default.
    public var captions = false

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

    /// What the view directory holds. A Flatpak Pictures folder holds the selection
    /// alone: with Full Access the app reads its own Pictures through its own permission,
    /// and a copy of the whole library would only fill the disk.
    public var heldLayout: ViewLayout {
        flatpakPictures && layout == .full ? .empty : layout
    }

    /// Where the app's view is: its Flatpak Pictures folder, or its random name under `views`.
    public func viewPath(views: String, pictures: FlatpakPicturesFolder) -> String {
        flatpakPictures ? pictures.path(of: id) : path(under: views)
    }

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
