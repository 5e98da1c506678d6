import ServiceLifecycle

/// Files apps drop in their inboxes (SPEC §7), handed to the engine to import in order.
struct InboxService: Service {
    let engine: Engine

    func run() async throws {
        let watcher = await engine.inboxWatcher()
        try await withGracefulShutdownHandler {
            try watcher.start()
            // Ends when the watcher's thread stops and finishes the stream.
            for await arrival in watcher.arrivals { await engine.receive(arrival) }
        } onGracefulShutdown: {
            watcher.stop()
        }
    }
}
