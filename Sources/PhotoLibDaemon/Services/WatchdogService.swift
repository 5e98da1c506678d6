import PhotoLibSystem
import ServiceLifecycle

/// Feeds systemd's watchdog, only when the engine answers: a wedged engine gets restarted.
struct WatchdogService: Service {
    let engine: Engine
    let notifier: SystemdNotifier

    func run() async {
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()  // cancelled (another service failed) ends the wait as a shutdown would
            return
        }
        // Ends with the sleep's CancellationError when the shutdown reaches this service.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval / 2)
                await engine.ping()
                notifier.notify(["WATCHDOG": "1"])
            }
        }
    }
}
