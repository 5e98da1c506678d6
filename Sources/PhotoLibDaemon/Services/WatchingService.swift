import ServiceLifecycle

/// The library's inotify watches, whose events go to the engine's queue.
struct WatchingService: Service {
    let watcher: LibraryWatcher

    func run() async {
        watcher.start()
        // Cancellation (another service failed) ends the wait as a shutdown would.
        try? await gracefulShutdown()
        watcher.stop()
    }
}
