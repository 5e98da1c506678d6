/// A status set for one access level of an app, decided before anything is written: the status and
/// the one it returns to, the pending requests the change answers, whether the app must reload, and
/// what the settle does. Pure: the engine's commit reads the app and its requests, asks `decide`,
/// and writes what it says.
public struct AuthorizationPlan: Sendable, Equatable {
    /// The status to set, as the person (or a grant's end) sets it.
    public struct Change: Sendable, Equatable {
        public var level: AccessLevel
        public var status: AuthorizationStatus
        /// The request the person is answering, and with what.
        public var answering: Answering?
        /// The assets the same answer newly added to the selection, as the app knows them (a `limited` answer with photos).
        public var addedAssets: [String]
        /// When the status ends and returns to what it was (nil: it lasts).
        public var endsAt: Int64?
        /// Why it is set, in the app's events (`expired` when a timed status returns).
        public var reason: String?
        /// The person confirmed what limiting an app with a broad grant takes from it.
        public var confirmed: Bool

        public init(level: AccessLevel, status: AuthorizationStatus, answering: Answering? = nil, addedAssets: [String] = [],
                    endsAt: Int64? = nil, reason: String? = nil, confirmed: Bool = false) {
            self.level = level
            self.status = status
            self.answering = answering
            self.addedAssets = addedAssets
            self.endsAt = endsAt
            self.reason = reason
            self.confirmed = confirmed
        }
    }

    /// A pending request and the person's answer to it.
    public struct Answering: Sendable, Equatable {
        public var request: AccessRequest
        public var answer: RequestAnswer
        public init(request: AccessRequest, answer: RequestAnswer) {
            self.request = request
            self.answer = answer
        }
    }

    /// A pending request the change decides, and what its app hears.
    public struct Settled: Sendable, Equatable {
        public var request: AccessRequest
        /// The answer as the app hears it: the person's, or the status that settled the question.
        public var answer: String?
        /// The app's status for the level the request is about, after the change.
        public var status: AuthorizationStatus
        /// The assets newly added, for the request the person answered; nil for the others.
        public var addedAssets: [String]?
    }

    public let change: Change
    /// The app after the change.
    public let after: AppRecord
    /// The status the level returns to when `change.endsAt` comes (nil when it lasts): the one before
    /// the first timed status, so two timed grants in a row end where they began.
    public let returnsTo: AuthorizationStatus?
    /// The app's pending requests the change decides, in the order they were made: the one answered
    /// and any whose question no longer stands (`RequestPolicy.settledStatus`). They are deleted.
    public let settled: [Settled]
    /// The request the authorization event names: the one answered, else one of the same level.
    public let namedRequest: Int64?
    /// The read-write status changed: the app is told to read its view again.
    public let reloads: Bool

    /// Decides the change.
    /// - Parameters:
    ///   - app: the app as it stands.
    ///   - pendingReturn: the status a timed status of this level already returns to, if one is set.
    ///   - requests: the app's pending requests.
    public static func decide(_ change: Change, app before: AppRecord, pendingReturn: AuthorizationStatus?,
                              requests: [AccessRequest]) -> AuthorizationPlan {
        var after = before
        switch change.level {
        case .readWrite: after.readWrite = change.status
        case .addOnly: after.addOnly = change.status
        }
        let current = change.level == .readWrite ? before.readWrite : before.addOnly
        let returnsTo = change.endsAt == nil ? nil : ExpiringGrant.returnStatus(current: current, pendingReturn: pendingReturn)
        let settled = requests.compactMap { request -> Settled? in
            let mine = change.answering?.request.id == request.id
            let answer: String?
            if mine {
                answer = change.answering?.answer.rawValue
            } else if let status = RequestPolicy.settledStatus(of: request.kind, readWrite: after.readWrite, addOnly: after.addOnly) {
                answer = RequestAnswer(rawValue: status.rawValue)?.rawValue  // `restricted` is no answer a person types
            } else {
                return nil
            }
            return Settled(request: request, answer: answer, status: after.status(askedBy: request.kind),
                           addedAssets: mine ? change.addedAssets : nil)
        }
        let named = settled.first { $0.request.id == change.answering?.request.id }
            ?? settled.first { $0.request.kind == .authorization(change.level) }
        return AuthorizationPlan(change: change, after: after, returnsTo: returnsTo, settled: settled, namedRequest: named?.request.id,
                                 reloads: change.level == .readWrite && before.readWrite != change.status)
    }

    /// What the settle does: the app's view reconciled whole, any copy without location it no longer
    /// links dropped, its Flatpak override following the status, the grant alarm woken.
    public var acts: SettleActs { .statusChanged(after, confirmed: change.confirmed) }
}
