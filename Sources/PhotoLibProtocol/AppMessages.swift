public import PhotoLibCore

/// Parameters naming an app, optional for an app caller registered for exactly one app.
public struct OptionalAppParams: Codable, Sendable, Equatable {
    public var app: String?
    public init(app: String? = nil) { self.app = app }
}

public struct AuthorizationStatusResult: Codable, Sendable, Equatable {
    public var app: String
    public var readWrite: String
    public var addOnly: String
    public init(app: String, readWrite: String, addOnly: String) {
        self.app = app
        self.readWrite = readWrite
        self.addOnly = addOnly
    }
}

/// `list`: the view's assets and the token they correspond to (one snapshot).
public struct ListResult: Codable, Sendable, Equatable {
    public var app: String
    public var token: Int64
    public var status: String
    public var assets: [ViewAsset]
    public init(app: String, token: Int64, status: String, assets: [ViewAsset]) {
        self.app = app
        self.token = token
        self.status = status
        self.assets = assets
    }
}

public struct SubscribeParams: Codable, Sendable, Equatable {
    /// The app to follow; an admin may leave it out to follow every app.
    public var app: String?
    /// Resume after this token: first the coalesced changes since, then live events.
    public var since: Int64?
    public init(app: String? = nil, since: Int64? = nil) {
        self.app = app
        self.since = since
    }
}

public struct SubscribeResult: Codable, Sendable, Equatable {
    /// The apps followed.
    public var apps: [String]
    /// For a single app: its current token (events that follow carry larger ones).
    public var token: Int64?
    public init(apps: [String], token: Int64?) {
        self.apps = apps
        self.token = token
    }
}
