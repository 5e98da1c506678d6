import PhotoLibConfiguration
import PhotoLibCore

/// The engine's part in the access report (`AccessReport`): which views it watches, and the album tree opens are named in.
extension Engine {
    /// Watches exactly the views of `apps`.
    func syncViewOpens(_ apps: [AppRecord]) {
        report.watch(views.watchablePaths(apps))
    }

    /// Writes a batch of opens to the access log.
    func recordOpens(_ opens: [ViewOpenWatcher.Open]) {
        report.record(opens, albums: index.albums)
    }
}
