public import PhotoLibCore

/// Who made an edit: the admin's or the app's uid.
public struct EventActor: Codable, Sendable, Equatable {
    public var uid: UInt32
    /// `admin` or `app`.
    public var role: String

    public init(uid: UInt32, role: String) {
        self.uid = uid
        self.role = role
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

    public init(app: String, token: Int64, incremental: Bool, details: ChangeDetails) {
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

    public init(app: String, token: Int64, access: String, status: String, by: EventActor) {
        self.app = app
        self.token = token
        self.access = access
        self.status = status
        self.by = by
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

    public init(app: String, token: Int64, addedAssets: [String], removedAssets: [String], addedAlbums: Int, removedAlbums: Int, by: EventActor) {
        self.app = app
        self.token = token
        self.addedAssets = addedAssets
        self.removedAssets = removedAssets
        self.addedAlbums = addedAlbums
        self.removedAlbums = removedAlbums
        self.by = by
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

/// The fields every event has, for dispatching on `event`.
public struct EventHead: Codable, Sendable, Equatable {
    public var event: String
    public var app: String
    public var token: Int64
}
