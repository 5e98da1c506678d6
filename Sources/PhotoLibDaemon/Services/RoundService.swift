import PhotoLibCore
import ServiceLifecycle

/// Runs verification rounds (`Engine.verifyRound`) over what inotify cannot follow, when the
/// schedule says: every `verify_interval` seconds, backing off while nothing changes.
struct RoundService: Service {
    let engine: Engine
    let intervalSeconds: Int

    func run() async {
        var schedule = RoundSchedule(base: Int64(intervalSeconds) * 1000)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let wait = schedule.interval
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(wait)) }
            } catch {
                return  // stopping
            }
            let found = await engine.verifyRound(interval: schedule.interval)
            schedule.roundEnded(foundChanges: found)
        }
    }
}
