import PhotoLibCore

/// What the router asks of the library's watcher: to watch the whole library afresh (a rescan).
/// `LibraryWatcher` is it; a test of the router gives a fake, and needs no watching thread.
protocol LibraryRewatching: Sendable {
    func requestRewatch()
}

/// What the router asks of the apps' own sockets: one for each app registered, none for an app
/// removed, and where each is. `EndpointSet` is it; a test of the router gives a fake, and binds nothing.
protocol AppEndpoints: Sendable {
    /// Where an app's endpoint is, whether or not it is bound now.
    func path(of app: AppRecord) -> String
    /// Binds an app's endpoint, if it is not bound.
    func ensure(_ app: AppRecord) async
    /// Closes a removed app's endpoint.
    func remove(_ id: AppID) async
    /// Brings the endpoints in line with the apps registered.
    func sync(_ apps: [AppRecord]) async
}

extension LibraryWatcher: LibraryRewatching {}
extension EndpointSet: AppEndpoints {}
