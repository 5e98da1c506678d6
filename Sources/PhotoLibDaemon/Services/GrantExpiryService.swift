import PhotoLibCore
import ServiceLifecycle

/// Ends grants when their time comes (SPEC §5): sleeps until the next end, or until a new grant wakes it.
struct GrantExpiryService: Service {
    let engine: Engine
    /// The next end, as found by the expiry run before the first reconcile.
    let firstEnd: Int64?

    func run() async {
        let alarm = engine.expiryAlarm
        await withGracefulShutdownHandler {
            var next = firstEnd
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                await alarm.wait(until: next)
                if Task.isShuttingDownGracefully || Task.isCancelled { break }
                next = await engine.expireGrants()
            }
        } onGracefulShutdown: {
            alarm.wake()
        }
    }
}
