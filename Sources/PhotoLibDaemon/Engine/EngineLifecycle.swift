import PhotoLibSystem

/// Where the engine is in its life: whether it told systemd it is ready, whether it is
/// stopping, whether the library is there, and which `rescan` requests wait for the next full scan.
struct EngineLifecycle {
    private let notifier = SystemdNotifier()
    private var announcedReady = false
    /// Set by `stop`: the current batch finishes, no other starts.
    private(set) var stopped = false
    /// False from the moment the library's root went away until a rescan finds it again.
    var libraryAvailable = true
    private var scanWaiters: [CheckedContinuation<Void, Never>] = []

    /// Tells systemd the status line, and READY=1 the first time.
    mutating func announce(status: String) {
        var fields = ["STATUS": status]
        if !announcedReady {
            fields["READY"] = "1"
            announcedReady = true
        }
        notifier.notify(fields)
    }

    mutating func waitForScan(_ continuation: CheckedContinuation<Void, Never>) {
        scanWaiters.append(continuation)
    }

    /// The `rescan` requests waiting now, for the scan about to walk the library to answer when it ends.
    mutating func takeScanWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { scanWaiters.removeAll() }
        return scanWaiters
    }

    /// Every `rescan` waiting is answered: no scan is to come (the engine stops, or the library went).
    mutating func finishScanWaiters() {
        for waiter in scanWaiters { waiter.resume() }
        scanWaiters.removeAll()
    }

    mutating func stop() {
        stopped = true
        finishScanWaiters()
    }
}
