import PhotoLibCore

/// `requestAuthorization` parameters (app method).
public struct RequestAuthorizationParams: Codable, Sendable, Equatable {
    /// The caller's app; may be left out by an app registered for one app (or on its endpoint).
    public var app: String?
    /// `readWrite` (the default) or `addOnly`.
    public var access: String?
    /// true (the default): reply when the person has answered; false: reply at
    /// once (`state: "pending"`) and hear the answer as an event.
    public var wait: Bool?

    public init(app: String? = nil, access: String? = nil, wait: Bool? = nil) {
        self.app = app
        self.access = access
        self.wait = wait
    }
}

/// `requestReview` parameters (app method): a limited app asks the person to
/// revise its selection (iOS's limited-library picker).
public struct RequestReviewParams: Codable, Sendable, Equatable {
    public var app: String?
    /// As in `requestAuthorization`.
    public var wait: Bool?

    public init(app: String? = nil, wait: Bool? = nil) {
        self.app = app
        self.wait = wait
    }
}

/// What an app hears of its request: the reply to `requestAuthorization` or
/// `requestReview`, and what `answer` returns to the person.
public struct RequestOutcome: Codable, Sendable, Equatable {
    public var app: String
    /// The request's number; absent when it was answered at once (nothing was stored).
    public var request: Int64?
    /// `authorization`, `review` or `pick`.
    public var kind: String
    /// For an authorization: `readWrite` or `addOnly`.
    public var access: String?
    /// `pending` (only with `wait: false`), `answered` or `cancelled`.
    public var state: String
    /// The person's answer, when there was one: `authorized`, `limited` or `denied`.
    public var answer: String?
    /// The app's status for the access level concerned (read-write for a review) now.
    public var status: String
    /// The asset IDs the person newly added to the selection (a `limited` answer).
    public var addedAssets: [String]?
    /// For a pick: the assets handed over, in order.
    public var pickedAssets: [String]?

    public init(app: String, request: Int64?, kind: String, access: String?, state: String, answer: String?, status: String,
                addedAssets: [String]?, pickedAssets: [String]? = nil) {
        self.pickedAssets = pickedAssets
        self.app = app
        self.request = request
        self.kind = kind
        self.access = access
        self.state = state
        self.answer = answer
        self.status = status
        self.addedAssets = addedAssets
    }
}

/// `requests` parameters (admin): optionally one app's.
public struct RequestsParams: Codable, Sendable, Equatable {
    public var app: String?
    public init(app: String? = nil) { self.app = app }
}

/// A pending request, as the person sees it.
public struct RequestInfo: Codable, Sendable, Equatable {
    public var request: Int64
    public var app: String
    /// The purpose the app was registered with (by the owner, never by the app).
    public var purpose: String
    public var kind: String
    public var access: String?
    /// When it was made, seconds since the Unix epoch.
    public var createdAt: Int64
    /// Connections of the app waiting for the answer now (an app on screen, asking).
    public var waiting: Int?
    /// For a pick: what it asks for.
    public var pick: PickInfo?

    public init(request: Int64, app: String, purpose: String, kind: String, access: String?, createdAt: Int64, waiting: Int? = nil,
                pick: PickInfo? = nil) {
        self.pick = pick
        self.request = request
        self.app = app
        self.purpose = purpose
        self.kind = kind
        self.access = access
        self.createdAt = createdAt
        self.waiting = waiting
    }
}

public struct RequestsResult: Codable, Sendable, Equatable {
    public var requests: [RequestInfo]
    public init(requests: [RequestInfo]) { self.requests = requests }
}

/// `answer` parameters (admin).
public struct AnswerParams: Codable, Sendable, Equatable {
    public var request: Int64
    /// `authorized`, `limited`, `denied` or `cancel`; `pick` for a pick.
    public var answer: String
    /// With `limited`: assets (IDs or library paths) that join the selection.
    /// With `pick`: the assets chosen, in the order the app receives them.
    public var assets: [String]?
    /// With `limited`: albums (library paths) that join the selection, live.
    public var albums: [String]?
    /// With `cancel`: why, when it was not the person's own Cancel (`pageClosed`); a pick's app is told.
    public var reason: String?
    /// With `pick`: whether location leaves with the photos (only for an app that may have it); absent: the app's setting.
    public var location: Bool?
    /// With `pick`: whether captions, titles and people's names leave with them; absent: the app's setting.
    public var captions: Bool?

    public init(request: Int64, answer: String, assets: [String]? = nil, albums: [String]? = nil, reason: String? = nil,
                location: Bool? = nil, captions: Bool? = nil) {
        self.location = location
        self.captions = captions
        self.request = request
        self.answer = answer
        self.assets = assets
        self.albums = albums
        self.reason = reason
    }
}
