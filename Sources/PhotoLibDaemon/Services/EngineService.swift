import PhotoLibStore
import ServiceLifecycle

/// The one executor: applies what the watcher queues, one batch after another,
/// and reconciles the views it touched. First in the group, so it stops last:
/// every other service hands it work until it is gone.
struct EngineService: Service {
    let engine: Engine
    let queue: EventQueue
    let store: Store

    func run() async {
        await withGracefulShutdownHandler {
            await engine.run()
        } onGracefulShutdown: { [engine, queue] in
            // The batch under way finishes; the queue's end then ends `run`.
            Task {
                await engine.stop()
                queue.finish()
            }
        }
        // No change is under way now: what the views are is what the next start may trust.
        await engine.recordViewStampsAtStop()
        await engine.recordAlbumDigestsAtStop()
        store.checkpointForStop()
    }
}
