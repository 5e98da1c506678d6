import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

/// The owner of apps' requests to the person: what an ask records, what a withdrawal records, and
/// who waits for the answers (connections waiting for an answer or a pick, and the desktop prompt
/// that tells the person an app asks).
///
/// Its plan functions run inside the engine's transaction and return what the settle is to tell;
/// the engine only sequences them (SPEC §5, §6; the rules themselves are `RequestPolicy`'s).
/// Shared with the connections (a connection that closes stops waiting), so every part is Sendable.
struct RequestDesk: Sendable {
    /// Connections waiting for the person's answers.
    let answers = RequestAnswers()
    /// Connections waiting for a pick.
    let picks = PickBoard<PickWaiter>()
    /// Tells the person, on their desktop, that an app asks.
    let prompter: DesktopPrompter

    /// What an app's ask did, inside its transaction.
    struct Asked {
        /// What the app hears.
        var outcome: RequestOutcome
        /// A request the ask made (not one it joined): the person is to hear of it.
        var made: (request: AccessRequest, purpose: String)?
    }

    /// An app's ask: answered at once when its status is decided, else recorded as pending
    /// (or joined, when one of its kind is pending already).
    func ask(_ app: AppID, kind: RequestKind, now: Int64, tx: StoreTransaction) throws -> Asked {
        guard let record = try tx.app(app) else { throw PhotoLibError.unknownApp(app) }
        switch try RequestPolicy.ask(kind, app: app, readWrite: record.readWrite, addOnly: record.addOnly) {
        case .answeredNow(let status):
            return Asked(outcome: RequestOutcome(app: app, kind: kind, request: nil, state: .answered, status: status))
        case .pending:
            let (request, isNew) = try tx.pendingRequest(app, kind: kind, now: now)
            return Asked(outcome: RequestOutcome(app: app, kind: kind, request: request.id, state: .pending, status: record.status(askedBy: kind)),
                         made: isNew ? (request, record.purpose) : nil)
        }
    }

    /// What the settle of an ask that made a request tells: its `request` event, and the person, on the desktop.
    func settling(_ made: (request: AccessRequest, purpose: String), journal: ChangeJournal) throws -> ChangeSet {
        var changes = ChangeSet(events: [try journal.requestEvent(made.request, purpose: made.purpose, state: .pending, answer: nil)])
        changes.announced = [made]
        return changes
    }

    /// A request withdrawn without a decision, inside its transaction: the status stays as it is, and the app
    /// hears (in its history, but for a pick, which it hears through its reply) that its request was cancelled.
    func cancel(_ request: AccessRequest, by: EventActor, reason: CancelReason?, journal: ChangeJournal, tx: StoreTransaction) throws -> ChangeSet {
        guard try tx.request(id: request.id) != nil, let record = try tx.app(request.app) else {
            throw PhotoLibError.unknownRequest(request.id)
        }
        try tx.deleteRequest(request.id)
        let status = record.status(askedBy: request.kind)
        var published: [PublishedEvent] = []
        switch request.kind {
        case .authorization(let level):
            published.append(try journal.recordAuthorization(
                request.app, access: level, status: status, by: by, request: (request.id, .cancelled), tx: tx))
        case .review:
            published.append(try journal.recordSelection(
                request.app, addedAssets: [], removedAssets: [], addedAlbums: 0, removedAlbums: 0, by: by,
                request: (request.id, .cancelled), tx: tx))
        case .pick:
            break
        }
        let outcome = RequestOutcome(app: request.app, kind: request.kind, request: request.id, state: .cancelled, status: status)
        var changes = ChangeSet(events: published)
        changes.answer([RequestSettlement(request: request, outcome: outcome)], purpose: record.purpose, reason: reason)
        return changes
    }

    /// An app's pick, inside its transaction: recorded as pending, unless one of its picks is pending already
    /// (a pick is never joined: each hands its files to the connection that asked).
    func askPick(_ app: AppID, options: PickOptions, now: Int64, tx: StoreTransaction) throws -> (request: AccessRequest, purpose: String) {
        let kind = RequestKind.pick(options)
        guard let record = try tx.app(app) else { throw PhotoLibError.unknownApp(app) }
        if let existing = try tx.request(app: app, kind: kind) { throw PhotoLibError.pick(.pending(app: app, request: existing.id)) }
        return (try tx.pendingRequest(app, kind: kind, now: now).request, record.purpose)
    }

    /// What the settle of a pick asked tells: its `request` event, and (when `announce`) the person on the desktop.
    func settling(pick made: (request: AccessRequest, purpose: String), announce: Bool, journal: ChangeJournal) throws -> ChangeSet {
        var changes = ChangeSet(events: [try journal.requestEvent(made.request, purpose: made.purpose, state: .pending, answer: nil)])
        if announce { changes.announced = [made] }
        return changes
    }

    /// A pick whose app is no longer there to receive it, removed inside its transaction; its `request` event says cancelled.
    func withdraw(_ request: AccessRequest, journal: ChangeJournal, tx: StoreTransaction) throws -> ChangeSet {
        try tx.deleteRequest(request.id)
        let purpose = try tx.app(request.app)?.purpose ?? ""
        return ChangeSet(events: [try journal.requestEvent(request, purpose: purpose, state: .cancelled, answer: nil)])
    }
}
