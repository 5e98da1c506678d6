import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibStore

// A restart that reads only the view directories that changed: stamps recorded at a clean stop,
// trusted by the start's scan (`ViewStamps`).
extension Engine {
    /// What the views were made under, besides the index and the apps' records: stamps recorded
    /// under another version, entry form or place are not trusted. (Which files are assets, the name
    /// policy, is the index's: a file it now takes or leaves changes its album, which is read.) Only
    /// values whose text is the same in every process: a set's order is not.
    var stampFingerprint: String {
        "photolibd \(Daemon.version); \(views.form.rawValue) entries; library \(configuration.library); views \(configuration.views)"
    }

    /// What each stampable app's view may take as right at this start, the albums the scan found
    /// changed excepted.
    func viewTrust(_ recorded: ViewStamps, changedAlbums: Set<AlbumTree.ID>) throws -> [AppID: ViewTrust] {
        var trust: [AppID: ViewTrust] = [:]
        for app in try store.read({ try $0.apps() }) where views.isStampable(app) {
            trust[app.id] = recorded.trust(for: app.id, fingerprint: stampFingerprint, changedAlbums: changedAlbums)
        }
        return trust
    }

    /// At a clean stop, once no change is under way: records the stamp of every directory of the
    /// stampable views, after a sentinel's. Nothing when the views may not be what the index says
    /// (a settle failed or was stopped, links still in flight, the library away, the start's scan
    /// not done): the next start then reads every view, as it would have.
    func recordViewStampsAtStop() {
        guard stamping.inStep, carried.tail == nil, lifecycle.libraryAvailable, board.snapshot.phase == .ready else {
            logger.debug("No view stamps recorded at this stop: the views may not be in step with the index.")
            return
        }
        do {
            let apps = try store.read { try $0.apps() }.filter { views.isStampable($0) }
            guard !apps.isEmpty else { return }
            let sentinel = try views.touchStampSentinel()
            var directories: [AppID: [AlbumTree.ID: ViewStamp]] = [:]
            for app in apps { directories[app.id] = try views.stamps(of: app, albums: index.albums) }
            let stamps = ViewStamps(sentinel: sentinel, fingerprint: stampFingerprint, directories: directories)
            try store.write { try $0.recordViewStamps(stamps) }
            let count = directories.values.reduce(0) { $0 + $1.count }
            logger.info("Recorded the stamps of \(count) view directories: the next start reads only those that change meanwhile.")
        } catch {
            logger.warning("Cannot record the views' stamps at this stop: \(error). The next start reads every view.")
        }
    }
}
