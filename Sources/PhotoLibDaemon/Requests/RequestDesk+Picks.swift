import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

extension RequestDesk {
    /// What the person's answer to a pending pick is about, checked before anything is resolved or opened.
    struct PickAnswer: Sendable {
        let request: AccessRequest
        let options: PickOptions
        let app: AppRecord
        /// What leaves with the files: the person's choices for this pick, or the app's settings.
        let sharing: SharingChoice
    }

    /// Checks an answer to a pick (SPEC §6): the request is a pick still pending, answered by naming
    /// assets, and the sharing choice holds for the app (`SharingChoice.answer`). Reads only.
    func pickAnswer(_ requestID: Int64, namesItems: Bool, location: Bool?, captions: Bool?, tx: StoreTransaction) throws -> PickAnswer {
        guard let request = try tx.request(id: requestID) else { throw PhotoLibError.unknownRequest(requestID) }
        _ = try RequestPolicy.effect(of: .pick, to: request.kind, namesItems: namesItems)
        guard let options = request.kind.pickOptions else { throw PhotoLibError.unknownRequest(requestID) }
        guard let app = try tx.app(request.app) else { throw PhotoLibError.unknownApp(request.app) }
        return PickAnswer(request: request, options: options, app: app,
                          sharing: try SharingChoice.answer(location: location, captions: captions, app: app))
    }

    /// A pick handed over, inside its transaction: the request is gone and what the app received is in
    /// the access log. Returns what the app hears (with its own asset IDs) and the app's purpose, for
    /// `settling(answeredPick:purpose:journal:)`.
    func finishPick(_ prepared: PreparedPick, now: Int64, tx: StoreTransaction) throws -> (outcome: RequestOutcome, purpose: String) {
        let request = prepared.request
        let picked = prepared.deliveries.map(\.asset.id)
        try tx.deleteRequest(request.id)
        try tx.logAccess(picked.map { AccessLogEntry(app: request.app, asset: $0, how: .pick, request: request.id, at: now) })
        let record = try tx.app(request.app)
        let outcome = RequestOutcome(app: request.app, kind: request.kind, request: request.id, state: .answered,
                                     answer: RequestAnswer.pick.rawValue, status: record?.readWrite ?? .notDetermined,
                                     pickedAssets: picked.map { (prepared.ids?.id(for: $0) ?? $0).rawValue })
        return (outcome, record?.purpose ?? "")
    }

    /// What the settle of a pick handed over tells: its `request` event, answered (the person's tools take the sheet down).
    func settling(answeredPick request: AccessRequest, purpose: String, journal: ChangeJournal) throws -> ChangeSet {
        ChangeSet(events: [try journal.requestEvent(request, purpose: purpose, state: .answered, answer: RequestAnswer.pick.rawValue)])
    }
}
