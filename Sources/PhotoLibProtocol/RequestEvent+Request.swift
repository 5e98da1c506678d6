public import PhotoLibCore

extension RequestEvent {
    /// The admin `request` event for `request`: one spelling for the live event and for the
    /// replay a subscriber gets of what is pending, a pick's options included.
    public init(_ request: AccessRequest, purpose: String, state: RequestState, answer: String?) {
        self.init(app: request.app.rawValue, request: request.id, kind: request.kind.name, access: request.kind.access?.rawValue,
                  purpose: purpose, state: state.rawValue, answer: answer, createdAt: request.createdAt,
                  pick: request.kind.pickOptions.map(PickInfo.init))
    }
}
