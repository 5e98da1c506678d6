import ServiceLifecycle

/// The access report (SPEC §8): old entries pruned at start, then each open
/// of a file in a view recorded as it happens. Idle when the report is off.
struct AccessReportService: Service {
    let engine: Engine

    func run() async throws {
        engine.report.prune()
        guard let watcher = engine.report.watcher else {
            try? await gracefulShutdown()  // cancelled (another service failed) ends the wait as a shutdown would
            return
        }
        try await withGracefulShutdownHandler {
            try watcher.start()
            for await opens in watcher.opens { await engine.recordOpens(opens) }
        } onGracefulShutdown: {
            watcher.stop()
        }
    }
}
