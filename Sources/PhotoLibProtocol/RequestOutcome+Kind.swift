public import PhotoLibCore

extension RequestOutcome {
    /// What an app hears of a request of `kind`, from typed values: one spelling of
    /// kind, access level, state and status for every place a request is decided.
    public init(app: AppID, kind: RequestKind, request: Int64?, state: RequestState, answer: String? = nil,
                status: AuthorizationStatus, addedAssets: [String]? = nil, pickedAssets: [String]? = nil) {
        self.init(app: app.rawValue, request: request, kind: kind.name, access: kind.access?.rawValue, state: state.rawValue,
                  answer: answer, status: status.rawValue, addedAssets: addedAssets, pickedAssets: pickedAssets)
    }

    /// The state as the core knows it (nil for a spelling this version does not know).
    public var requestState: RequestState? { RequestState(rawValue: state) }
}
