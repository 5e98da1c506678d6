import PhotoLibConfiguration
import PhotoLibCore

/// The engine's part in the access report (`AccessReport`): which views it watches, and the album tree opens are named in.
extension Engine {
    /// Watches exactly the views of `apps`.
    func syncViewOpens(_ apps: [AppRecord]) {
        report.watch(viewPaths(apps))
    }

    /// Each app's view directory, by app, for the open watches: but a view served to an app's own uid
    /// alone (`ViewMaintainer.servedToItsUIDAlone`), which the owner cannot enter, so cannot watch.
    func viewPaths(_ apps: [AppRecord]) -> [AppID: String] {
        Dictionary(apps.filter { !views.servedToItsUIDAlone($0) }.map { ($0.id, $0.viewPath(views: configuration.views, pictures: views.pictures)) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// Writes a batch of opens to the access log.
    func recordOpens(_ opens: [ViewOpenWatcher.Open]) {
        report.record(opens, albums: index.albums)
    }
}
