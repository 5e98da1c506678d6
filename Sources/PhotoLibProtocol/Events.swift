public import PhotoLibCore

/// Who made an edit: the admin's or the app's uid.
public struct EventActor: Codable, Sendable, Equatable {
    public var uid: UInt32
    /// `admin`, `app` or `expiry` (`ActorRole`).
    public var role: String

    public init(uid: UInt32, role: ActorRole) {
        self.uid = uid
        self.role = role.rawValue
    }
}

/// The view changed. Apply `removed`, `inserted`, `changed` in that order;
/// `incremental: false` means "too different: reload with `list`".
public struct ChangeEvent: Codable, Sendable, Equatable {
    public var event = "change"
    public var app: String
    public var token: Int64
    public var incremental: Bool
    public var removed: [ViewAsset]
    public var inserted: [ViewAsset]
    public var changed: [ViewAsset]
    /// Why, when it is not an edit of the library or of the selection: `expired` (a timed grant ended).
    public var reason: String?

    public init(app: String, token: Int64, incremental: Bool, details: ChangeDetails, reason: String? = nil) {
        self.reason = reason
        self.app = app
        self.token = token
        self.incremental = incremental
        removed = details.removed
        inserted = details.inserted
        changed = details.changed
    }

    public var details: ChangeDetails { ChangeDetails(removed: removed, inserted: inserted, changed: changed) }
}

/// The person changed the app's authorization.
public struct AuthorizationEvent: Codable, Sendable, Equatable {
    public var event = "authorization"
    public var app: String
    public var token: Int64
    public var access: String
    public var status: String
    public var by: EventActor
    /// The app's request this answers, when the change answered one.
    public var request: Int64?
    /// With `request`: `answered`, or `cancelled` when the person withdrew it
    /// without deciding (the status is then unchanged).
    public var state: String?
    /// `expired` when a timed status ended and the status returned to what it was.
    public var reason: String?
    /// When this status ends (seconds since the epoch), for a timed one.
    public var endsAt: Int64?

    public init(app: String, token: Int64, access: String, status: String, by: EventActor, request: Int64? = nil, state: String? = nil,
                reason: String? = nil, endsAt: Int64? = nil) {
        self.reason = reason
        self.endsAt = endsAt
        self.app = app
        self.token = token
        self.access = access
        self.status = status
        self.by = by
        self.request = request
        self.state = state
    }
}

/// The person edited the app's selection. Album grants are counted, never named:
/// album names are the library's, not the app's.
public struct SelectionEvent: Codable, Sendable, Equatable {
    public var event = "selection"
    public var app: String
    public var token: Int64
    public var addedAssets: [String]
    public var removedAssets: [String]
    public var addedAlbums: Int
    public var removedAlbums: Int
    public var by: EventActor
    /// The app's review request this answers, when the edit answered one.
    public var request: Int64?
    /// With `request`: `answered`, or `cancelled` (nothing was added).
    public var state: String?
    /// `expired` when timed grants ended (what was removed).
    public var reason: String?
    /// When what was added ends (seconds since the epoch), for a timed grant.
    public var endsAt: Int64?

    public init(app: String, token: Int64, addedAssets: [String], removedAssets: [String], addedAlbums: Int, removedAlbums: Int, by: EventActor,
                request: Int64? = nil, state: String? = nil, reason: String? = nil, endsAt: Int64? = nil) {
        self.reason = reason
        self.endsAt = endsAt
        self.app = app
        self.token = token
        self.addedAssets = addedAssets
        self.removedAssets = removedAssets
        self.addedAlbums = addedAlbums
        self.removedAlbums = removedAlbums
        self.by = by
        self.request = request
        self.state = state
    }
}

/// The subscriber missed events (its token is older than the kept history, or
/// it fell too far behind): reload the view with `list`, then carry on.
public struct ResetEvent: Codable, Sendable, Equatable {
    public var event = "reset"
    public var app: String
    public var token: Int64
    public var reason: String

    public init(app: String, token: Int64, reason: String) {
        self.app = app
        self.token = token
        self.reason = reason
    }
}

/// For admin subscribers only: an app asked the person something, or a
/// pending request was answered or cancelled, so a person's tools can prompt
/// (and take the prompt down). Not part of any app's history: it carries no
/// token, and `photolibctl requests` lists what is pending.
public struct RequestEvent: Codable, Sendable, Equatable {
    public var event = "request"
    public var app: String
    public var request: Int64
    public var kind: String
    public var access: String?
    public var purpose: String
    /// `pending`, `answered` or `cancelled`.
    public var state: String
    /// With `answered`: `authorized`, `limited` or `denied`.
    public var answer: String?
    public var createdAt: Int64
    /// For a pick: what it asks for.
    public var pick: PickInfo?

    public init(app: String, request: Int64, kind: String, access: String?, purpose: String, state: String, answer: String?, createdAt: Int64,
                pick: PickInfo? = nil) {
        self.pick = pick
        self.app = app
        self.request = request
        self.kind = kind
        self.access = access
        self.purpose = purpose
        self.state = state
        self.answer = answer
        self.createdAt = createdAt
    }
}

/// A network library's server stopped answering (`unavailable`, with since when and why) or answers
/// again (`available`). Sent to every subscriber, once for each app it follows, and on subscribing
/// while the server is away. Not part of any app's history: it carries no token. Nothing is removed
/// meanwhile: an app keeps what it had, and reading a photo may fail until the server is back.
public struct LibraryEvent: Codable, Sendable, Equatable {
    public var event = "library"
    public var app: String
    /// `unavailable` or `available`.
    public var state: String
    /// With `unavailable`: since when (seconds since the epoch), and why.
    public var since: Int64?
    public var reason: String?

    public init(app: String, state: String, since: Int64? = nil, reason: String? = nil) {
        self.app = app
        self.state = state
        self.since = since
        self.reason = reason
    }
}

/// The fields every event has, for dispatching on `event`. `token` is absent
/// only on admin `request` events, which are not part of an app's history.
public struct EventHead: Codable, Sendable, Equatable {
    public var event: String
    public var app: String
    public var token: Int64?
}

/// What became of a file the app put in its inbox. `state` is `added` (the
/// app sees the new asset: `asset` is it, as in its view), `accepted` (an
/// add-only app: taken in, never to be seen by it) or `rejected` (the file is
/// at `rejected`, inside the inbox; `code` and `reason` say why).
public struct ImportEvent: Codable, Sendable, Equatable {
    public var event = "import"
    public var app: String
    public var token: Int64
    /// The file's name in the inbox (escaped as every name is).
    public var name: String
    public var state: String
    public var asset: ViewAsset?
    /// The library-wide asset ID, for an `added` asset the app's view does not show (a refused original).
    public var assetID: String?
    public var code: String?
    public var reason: String?
    /// Where the refused file is now, relative to the inbox (`rejected/NAME`).
    public var rejected: String?

    public init(app: String, token: Int64, name: String, state: String, asset: ViewAsset? = nil, assetID: String? = nil,
                code: String? = nil, reason: String? = nil, rejected: String? = nil) {
        self.app = app
        self.token = token
        self.name = name
        self.state = state
        self.asset = asset
        self.assetID = assetID
        self.code = code
        self.reason = reason
        self.rejected = rejected
    }
}

/// How far a request's long work is (a Full Access view of a large library, a big selection, a
/// rescan), sent on the request's own connection before its reply, about twice a second while it
/// works. It names the request in `requestID`, not `id`, so a client that takes the first line
/// carrying its `id` for the reply is never misled; a client that knows nothing of it skips it.
public struct ProgressEvent: Codable, Sendable, Equatable {
    public var event = "progress"
    /// The `id` of the request this is the progress of.
    public var requestID: RequestID
    /// What is being done: `view` (entries of a view checked and made), `scan` (files walked).
    public var stage: String
    public var done: Int64
    /// At least `done`; a rescan's total is the library's size before it, so it may grow.
    public var total: Int64

    public init(requestID: RequestID, stage: String, done: Int64, total: Int64) {
        self.requestID = requestID
        self.stage = stage
        self.done = done
        self.total = max(total, done)
    }
}
