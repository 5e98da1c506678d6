/// The rules of asking and answering (SPEC §5, §6), pure and tested on fakes:
/// when an app's question is answered at once, what a person's answer changes,
/// and which pending questions an authorization change settles.
public enum RequestPolicy {
    /// What becomes of an app's request.
    public enum Ask: Sendable, Equatable {
        /// The status is already decided (a denied app stays denied until the
        /// person changes it): the app hears it at once and nothing is stored.
        case answeredNow(AuthorizationStatus)
        /// The person must decide: the request waits.
        case pending
    }

    public static func ask(
        _ kind: RequestKind, app: AppID, readWrite: AuthorizationStatus, addOnly: AuthorizationStatus
    ) throws(PhotoLibError) -> Ask {
        switch kind {
        case .authorization(let level):
            let status = level == .readWrite ? readWrite : addOnly
            return status == .notDetermined ? .pending : .answeredNow(status)
        case .review:
            // iOS presents the limited-library picker only to a limited app.
            guard readWrite == .limited else { throw .reviewNeedsLimited(app: app, status: readWrite) }
            return .pending
        case .pick:
            // Like PHPickerViewController: the person's choice is the permission,
            // so a pick needs no authorization, and a denied app may still ask.
            return .pending
        }
    }

    /// What an answer changes.
    public struct Effect: Sendable, Equatable {
        /// The authorization to set, if any.
        public var authorize: (level: AccessLevel, status: AuthorizationStatus)?
        /// True when the named assets and albums join the selection.
        public var selects: Bool

        public init(authorize: (level: AccessLevel, status: AuthorizationStatus)?, selects: Bool) {
            self.authorize = authorize
            self.selects = selects
        }

        public static func == (a: Effect, b: Effect) -> Bool {
            a.selects == b.selects && a.authorize?.level == b.authorize?.level && a.authorize?.status == b.authorize?.status
        }
    }

    /// The effect of answering `kind` with `answer`; assets or albums are only
    /// for a `limited` answer (they are what the person chose).
    public static func effect(of answer: RequestAnswer, to kind: RequestKind, namesItems: Bool) throws(PhotoLibError) -> Effect {
        switch (kind, answer) {
        case (_, .cancel) where !namesItems:
            return Effect(authorize: nil, selects: false)
        case (.pick, .pick):
            // What the pick delivers is `PickPolicy`'s to decide; nothing is authorized or selected.
            guard namesItems else { throw .pick(.nothingChosen) }
            return Effect(authorize: nil, selects: false)
        case (.pick, _), (_, .pick):
            throw .invalidAnswer(answer.rawValue, expected: RequestAnswer.spellings(for: kind))
        default:
            break
        }
        if namesItems, answer != .limited { throw .answerItemsNeedLimited(answer: answer.rawValue) }
        switch (kind, answer) {
        case (_, .cancel), (.pick, _), (_, .pick):
            return Effect(authorize: nil, selects: false)
        case (.authorization(.addOnly), .limited):
            throw .answerNotForAddOnly
        case (.authorization(let level), _):
            return Effect(authorize: (level, status(answer)), selects: answer == .limited)
        case (.review, .limited):
            return Effect(authorize: nil, selects: true)
        case (.review, _):
            return Effect(authorize: (.readWrite, status(answer)), selects: false)
        }
    }

    /// The status a pending request of `kind` is answered with once the app's
    /// authorization has changed under it (the person decided with
    /// `photolibctl authorize`), or nil while its question still stands.
    public static func settledStatus(
        of kind: RequestKind, readWrite: AuthorizationStatus, addOnly: AuthorizationStatus
    ) -> AuthorizationStatus? {
        switch kind {
        case .authorization(let level):
            let status = level == .readWrite ? readWrite : addOnly
            return status == .notDetermined ? nil : status
        case .review:
            return readWrite == .limited ? nil : readWrite
        case .pick:
            return nil  // a pick does not depend on the app's status
        }
    }

    private static func status(_ answer: RequestAnswer) -> AuthorizationStatus {
        switch answer {
        case .authorized: .authorized
        case .limited: .limited
        case .denied: .denied
        case .cancel, .pick: .notDetermined
        }
    }
}
