public import PhotoLibCore
public import PhotoLibProtocol

extension PhotoLibConnection {
    /// Asks the person for access (PhotoKit's `requestAuthorization(for:)`).
    ///
    /// An app whose status is decided gets it at once. Otherwise, with `wait`
    /// (the default) this returns when the person has answered, which may take
    /// minutes: give the connection no receive timeout, or ask with
    /// `wait: false` and follow the `authorization` event that answers it.
    public func requestAuthorization(
        app: String? = nil, access: AccessLevel = .readWrite, wait: Bool = true
    ) throws(PhotoLibError) -> RequestOutcome {
        try call(.requestAuthorization, RequestAuthorizationParams(app: app, access: access.rawValue, wait: wait), returning: RequestOutcome.self)
    }

    /// Asks a limited app's person to revise its selection (the limited-library
    /// picker); the answer's `addedAssets` are the assets newly shared.
    public func requestReview(app: String? = nil, wait: Bool = true) throws(PhotoLibError) -> RequestOutcome {
        try call(.requestReview, RequestReviewParams(app: app, wait: wait), returning: RequestOutcome.self)
    }

    /// The app's status for both access levels.
    public func authorizationStatus(app: String? = nil) throws(PhotoLibError) -> AuthorizationStatusResult {
        try call(.authorizationStatus, OptionalAppParams(app: app), returning: AuthorizationStatusResult.self)
    }
}
